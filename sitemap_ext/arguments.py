"""The Python API's keyword arguments, checked once at the door.

A program that passes the wrong type gets a ``TypeError`` (or a ``ValueError`` for a
value out of range) naming the argument and what it takes, before anything is read:
never an ``AttributeError`` from deep inside, and never a string read one character
at a time where a list of strings belongs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence, Set
from typing import Any


def strings(function: str, name: str, value: Any) -> None:
    """A list (or tuple, set) of strings; a bare string or bytes is refused, and so is an
    iterator (read here, it would be empty where it is used)."""
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, (Sequence, Set)):
        raise TypeError(f"{function}({name}=...) takes a list of strings, not {type(value).__name__}")
    bad = next((item for item in value if not isinstance(item, str)), None)
    if bad is not None:
        raise TypeError(f"{function}({name}=...) takes strings, not {type(bad).__name__}")


def whole(function: str, name: str, value: Any, *, least: int = 0, none: bool = True) -> None:
    """An int (not a bool) of at least ``least``, or None where ``none``."""
    if value is None and none:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{function}({name}=...) takes an int, not {type(value).__name__}")
    if value < least:
        raise ValueError(f"{function}({name}=...) must be at least {least}, not {value}")


def flag(function: str, name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{function}({name}=...) takes True or False, not {type(value).__name__}")


def seconds(function: str, name: str, value: Any) -> None:
    """A finite number of seconds, 0 or more."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{function}({name}=...) takes a number of seconds, not {type(value).__name__}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{function}({name}=...) must be a finite number of seconds, 0 or more, not {value}")


def instance(function: str, name: str, value: Any, kind: type, what: str) -> None:
    """An instance of ``kind``, or None."""
    if value is not None and not isinstance(value, kind):
        raise TypeError(f"{function}({name}=...) takes {what}, not {type(value).__name__}")


def callback(function: str, name: str, value: Any) -> None:
    if value is not None and not callable(value):
        raise TypeError(f"{function}({name}=...) takes a function, not {type(value).__name__}")


def choice(function: str, name: str, value: Any, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{function}({name}=...) must be one of {', '.join(map(repr, allowed))}, not {value!r}")


__all__ = ["callback", "choice", "flag", "instance", "seconds", "strings", "whole"]
