"""What users choose to see: --select, --ignore, severity overrides, and a config file.

As in ruff and yamllint: codes or prefixes (``H`` for every hreflang cluster
code, ``L1`` for the language tags). Every rule always runs; a finding that is
not shown is counted (``ignored`` in the summary). The config file is
``[tool.sitemap-ext]`` in pyproject.toml, or a ``sitemap-ext.toml``, the first
found from the working folder upward; options on the command line come after it.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .. import structured
from ..codes import REGISTRY
from ..diagnostics import Severity, did_you_mean
from ..limits import MAX_CONFIG_BYTES
from ..safeio import Refused

CONFIG_KEYS = ("select", "ignore", "severity", "cross-submitted", "per-path-ignores")


class ConfigError(ValueError):
    """A config file or option that cannot be used (a usage error: exit 2)."""


@dataclass(frozen=True)
class Policy:
    """Which codes are shown, and at which severity. A lookup costs the length of the
    code (its prefixes are looked up in sets), however many entries were given."""

    select: tuple[str, ...] = ()  # codes or prefixes; empty: every code
    ignore: tuple[str, ...] = ()
    severity: tuple[tuple[str, Severity], ...] = ()  # (code or prefix, severity), most specific wins
    # (glob, codes or prefixes): findings in files the glob matches are not shown. A glob
    # is matched against the file as named and relative to ``root`` (the config's folder).
    per_path: tuple[tuple[str, tuple[str, ...]], ...] = ()
    root: str | None = None
    _select: frozenset[str] = field(init=False, repr=False, compare=False)
    _ignore: frozenset[str] = field(init=False, repr=False, compare=False)
    _severity: dict[str, Severity] = field(init=False, repr=False, compare=False)
    _per_file: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        levels: dict[str, Severity] = {}
        for prefix, level in self.severity:
            levels.setdefault(prefix, level)  # the first given wins, as before
        object.__setattr__(self, "_select", frozenset(self.select))
        object.__setattr__(self, "_ignore", frozenset(self.ignore))
        object.__setattr__(self, "_severity", levels)
        object.__setattr__(self, "_per_file", {})

    @staticmethod
    def _longest(code: str, prefixes: frozenset[str] | dict[str, Severity]) -> int:
        """The length of the longest prefix of ``code`` among ``prefixes``; -1: none."""
        return next((n for n in range(len(code), -1, -1) if code[:n] in prefixes), -1)

    def shown(self, code: str, file: str | None = None) -> bool:
        """Whether findings of this code (in ``file``) are shown: the longest matching
        prefix decides, then the per-path ignores of the file."""
        selected = self._longest(code, self._select) if self._select else 0
        if selected < 0 or selected < self._longest(code, self._ignore):
            return False
        return not (self.per_path and file is not None and self._ignored_in(code, file))

    def _ignored_in(self, code: str, file: str) -> bool:
        prefixes = self._per_file.get(file)
        if prefixes is None:  # (once per file: its findings share the globs' verdict)
            prefixes = self._per_file[file] = self._prefixes_for(file)
        return any(code.startswith(prefix) for prefix in prefixes)

    def _prefixes_for(self, file: str) -> tuple[str, ...]:
        """The codes and prefixes the per-path ignores hide in ``file``."""
        names = {file.replace(os.sep, "/")}
        if self.root is not None and not file.startswith("<") and "://" not in file:
            names.add(os.path.relpath(os.path.abspath(file), self.root).replace(os.sep, "/"))
        return tuple(prefix for pattern, prefixes in self.per_path
                     if any(fnmatch.fnmatchcase(name, pattern) for name in names) for prefix in prefixes)

    def severity_of(self, code: str, default: Severity) -> Severity:
        length = self._longest(code, self._severity)
        return self._severity[code[:length]] if length >= 0 else default


@dataclass
class Settings:
    """The config file's settings, before the command line adds its own."""

    source: str | None = None
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    severity: dict[str, str] = field(default_factory=dict)
    cross_submitted: list[str] = field(default_factory=list)
    per_path_ignores: dict[str, list[str]] = field(default_factory=dict)  # glob -> codes, prefixes or names


def find_config(start: str = ".") -> str | None:
    """The first sitemap-ext.toml, or pyproject.toml with [tool.sitemap-ext], from start
    upward. A pyproject.toml on the way that cannot be read as TOML is a ConfigError
    naming it and the place, as a sitemap-ext.toml is: passed over, the settings it may
    hold would be dropped without a word."""
    folder = os.path.abspath(start)
    while True:
        for name in ("sitemap-ext.toml", "pyproject.toml"):
            path = os.path.join(folder, name)
            if os.path.isfile(path) and (name != "pyproject.toml" or _has_table(path)):
                return path
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _has_table(path: str) -> bool:
    """Whether a pyproject.toml has [tool.sitemap-ext] (of any type: a wrong one is
    then reported by load_settings, not passed over); ConfigError if it is no TOML."""
    tool = read_toml(path, looked_for=True).get("tool")
    return isinstance(tool, dict) and "sitemap-ext" in tool


def read_toml(path: str, *, looked_for: bool = False) -> dict[str, Any]:
    """A config file read through ``structured`` (regular files only, bounded in size
    and depth); ConfigError naming the file, and the line and column where it is not
    TOML. A pyproject.toml found upward (``looked_for``) may hold no settings of ours:
    one that cannot be read is said to leave that unknown, with the ways past it."""
    try:
        return _read_toml(path)
    except ConfigError as exc:
        if not looked_for:
            raise
        raise ConfigError(f"{exc}; sitemap-ext looks for [tool.sitemap-ext] in it and cannot tell whether it "
                          "holds settings: mend it, name a config with --config FILE, or pass --no-config") from None


def _read_toml(path: str) -> dict[str, Any]:
    try:
        return structured.read_toml(path, MAX_CONFIG_BYTES)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except Refused as exc:
        raise ConfigError(f"cannot read {path}: it is {exc}") from None
    except structured.Malformed as exc:
        raise ConfigError(f"{path}:{exc.line}:{exc.column}: not valid TOML: {exc.reason}") from None


def load_settings(path: str | None) -> Settings:
    if path is None:
        return Settings()
    data = read_toml(path)
    table: Any = data
    if path.endswith("pyproject.toml"):
        tool = data.get("tool", {})
        if not isinstance(tool, dict):
            raise ConfigError(f"{path}: tool must be a table ([tool.sitemap-ext]), not {_toml_type(tool)}")
        table = tool.get("sitemap-ext", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.sitemap-ext] must be a table, not {_toml_type(table)}")
    unknown = sorted(set(table) - set(CONFIG_KEYS))
    if unknown:
        raise ConfigError(f"{path}: unknown setting {', '.join(unknown)} (known: {', '.join(CONFIG_KEYS)})")
    severity = table.get("severity", {})
    if not isinstance(severity, dict) or not all(isinstance(v, str) for v in severity.values()):
        raise ConfigError(f"{path}: severity must be a table of CODE = \"error\" | \"warning\" | \"info\"")
    per_path = table.get("per-path-ignores", {})
    if not isinstance(per_path, dict):
        raise ConfigError(f"{path}: per-path-ignores must be a table of \"GLOB\" = [CODES], not "
                          f"{_toml_type(per_path)}")
    settings = Settings(path, _strings(table.get("select", []), path, "select"),
                        _strings(table.get("ignore", []), path, "ignore"),
                        dict(severity),
                        _strings(table.get("cross-submitted", []), path, "cross-submitted"),
                        {glob: _strings(codes, path, f"per-path-ignores.{glob}") for glob, codes in per_path.items()})
    return settings


def _toml_type(value: object) -> str:
    """The TOML name of a value's type, for messages."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array",
             dict: "a table"}
    return names.get(type(value), "a date or time")


def _strings(value: Any, path: str, key: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: {key} must be a list of strings")
    return list(value)


def split_codes(values: Iterable[str]) -> list[str]:
    """'H,L101,url-duplicate' and repeated options alike (as written: see code_of)."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


_NAMES = {entry.name: entry.code for entry in REGISTRY.values()}
_PREFIXES = {code[:n] for code in REGISTRY for n in range(1, len(code) + 1)}


def code_of(text: str) -> str:
    """A code or prefix (any case) or a rule's name (``url-duplicate``) as the code or
    prefix it names; ConfigError, quoting the text as given, for neither."""
    if text.lower() in _NAMES:
        return _NAMES[text.lower()]
    if text.upper() in _PREFIXES:
        return text.upper()
    guess = did_you_mean(text.lower(), _NAMES)
    hint = f"; did you mean {guess} ({_NAMES[guess]})?" if guess else ""
    raise ConfigError(f"'{text}' is no code, prefix of one, or rule name (see 'sitemap-ext rules'){hint}")


def make_policy(select: Iterable[str], ignore: Iterable[str], severity: dict[str, str],
                per_path: dict[str, list[str]] | None = None, root: str | None = None) -> Policy:
    """A policy from codes, prefixes or rule names, each checked against the registry
    (in time linear in their number: the registry's prefixes are a set)."""
    levels = {level.value: level for level in Severity}
    chosen: dict[str, Severity] = {}  # by code: a later entry (the command line's) overrides an earlier
    for prefix, level in severity.items():
        if level.lower() not in levels:
            raise ConfigError(f"severity of {prefix} must be error, warning or info, not '{level}'")
        chosen[code_of(prefix)] = levels[level.lower()]
    pairs = list(chosen.items())
    paths = tuple((pattern, tuple(dict.fromkeys(code_of(c) for c in codes)))
                  for pattern, codes in (per_path or {}).items())
    # Each entry once: a policy goes to every worker, and no longer than the registry's prefixes.
    return Policy(tuple(dict.fromkeys(code_of(p) for p in select)), tuple(dict.fromkeys(code_of(p) for p in ignore)),
                  tuple(pairs), paths, root)


def load_policy(config: str | None, no_config: bool, select: Iterable[str], ignore: Iterable[str],
                severity: Iterable[str]) -> tuple[Policy, Settings]:
    """The policy a command runs with, the same for build and check: the config file
    (``config``, else the first sitemap-ext.toml or pyproject.toml with
    [tool.sitemap-ext] from the working folder upward; none with ``no_config``), then
    the command line's --select, --ignore and --severity on top. Raises ConfigError."""
    settings = load_settings(None if no_config else config or find_config())
    levels = {**settings.severity, **parse_severities(severity)}
    chosen = split_codes(select) or split_codes(settings.select)
    root = os.path.dirname(os.path.abspath(settings.source)) if settings.source else None
    policy = make_policy(chosen, split_codes(settings.ignore) + split_codes(ignore), levels,
                         settings.per_path_ignores, root)
    return policy, settings


def parse_severities(values: Iterable[str]) -> dict[str, str]:
    out = {}
    for value in values:
        code, sep, level = value.partition("=")
        if not sep:
            raise ConfigError(f"--severity takes CODE=LEVEL, not '{value}'")
        out[code.strip().upper()] = level.strip()
    return out
