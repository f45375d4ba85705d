"""A sequence whose items are made when read: a diff's URLs and clusters stay in the
sides' compact indexes until a report asks for them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class Lazy(Sequence[T]):
    """Items by number, each made by ``item`` when read (which raises IndexError past
    the end, and takes a negative number from the end, as the storage it reads does);
    ``__len__`` says how many."""

    def item(self, number: int) -> T:
        raise NotImplementedError

    @overload
    def __getitem__(self, number: int) -> T: ...

    @overload
    def __getitem__(self, number: slice) -> list[T]: ...

    def __getitem__(self, number: int | slice) -> T | list[T]:
        if isinstance(number, slice):
            return [self.item(i) for i in range(*number.indices(len(self)))]
        return self.item(number)
