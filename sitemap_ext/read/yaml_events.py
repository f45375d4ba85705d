"""YAML read as a stream of events, never composed: at C speed where PyYAML has libyaml,
in memory bounded by one event, however large the file. Composing (in Python, a node
object each) is what costs time and memory, so what can be told from the events is told
here first: whether a file is a site description, and whether it holds more nodes than
a description may (``MAX_YAML_NODES``), and where the one past the limit starts."""

from __future__ import annotations

import yaml

from ..limits import MAX_YAML_NODES

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def past_node_limit(text: str, limit: int = MAX_YAML_NODES) -> tuple[int, int] | None:
    """Where (1-based line, column) the node past ``limit`` starts: scalars, aliases,
    sequences and mappings each count one, as each is one node when composed. None
    within the limit, or where the text is malformed before it (composing reports that,
    with its place)."""
    count = 0
    try:
        for event in yaml.parse(text, Loader=_LOADER):
            if isinstance(event, yaml.NodeEvent):
                count += 1
                if count > limit:
                    mark = event.start_mark
                    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    except yaml.YAMLError:
        return None
    return None


def is_site_yaml(text: str) -> bool:
    """Whether YAML text is a site description: its (single) document is a mapping
    with a top-level ``site`` key. Read as a stream of events, never composed: the
    answer comes at the first event for a list or a scalar, at the ``site`` key for
    a description, and in bounded memory at C speed (where PyYAML has it) for any
    other mapping. Text that is not well-formed YAML counts as a site description,
    so that it is judged and its problem reported."""
    depth, key, ended = 0, True, False  # key: the next node at depth 1 is a key of the top mapping
    anchors: set[str] = set()
    try:
        for event in yaml.parse(text, Loader=_LOADER):
            if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
                if isinstance(event, yaml.AliasEvent) and event.anchor not in anchors:
                    return True  # an undefined alias: malformed (judged, and reported)
                anchors.add(event.anchor)
            if isinstance(event, yaml.DocumentStartEvent) and ended:
                return True  # a second document: no one description (judged, and reported)
            if isinstance(event, (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentStartEvent,
                                  yaml.DocumentEndEvent)):
                continue
            if depth == 0:
                if not isinstance(event, yaml.MappingStartEvent):
                    return False  # a list or a scalar at the top
                depth, key = 1, True
                continue
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                continue
            if isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
                ended = depth == 0
                if depth != 1:
                    continue
            elif depth > 1:
                continue
            elif key and isinstance(event, yaml.ScalarEvent) and event.value == "site":
                return True
            key = not key  # a whole node at depth 1: key, value, key, ...
        return False
    except (yaml.YAMLError, RecursionError):
        return True
