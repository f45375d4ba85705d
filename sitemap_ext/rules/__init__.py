"""The rule set, the rules across files and their cluster index, each in a module of
its own; this package imports none of them, so that what imports one rule module
(a build's normaliser its URL or date verdicts) loads that module alone.

``rule_set.py`` gathers every rule module's ``RULES`` (the registry of rules, in the
order they run) and the codes reported outside a rule; ``engine.py`` hands a record to
them; ``registry.py`` is the shape of a rule; ``clusters.py`` and its ``cluster_*``
modules judge the links across files; ``config.py`` is the policy (--select, --ignore,
--severity, the config file).
"""
