"""Fast construction of frozen, slotted dataclasses for the rules' hot paths.

A game's position data is a ``@dataclass(frozen=True, slots=True)``: immutable, compared and
hashed by value. Its generated ``__init__`` sets each field through ``object.__setattr__``
(the class's own ``__setattr__`` refuses), about 80 ns a field, which is the largest single
cost of a move in a random playout. :func:`builder` returns a constructor that takes every
field positionally and builds the same object (same type, equal and hashed alike) in about
a third of the time: it fills an instance of an unfrozen twin class with the same slots
(plain, fast attribute stores) and then gives it the frozen class (CPython allows
``__class__`` assignment between classes of identical layout). Where that is refused, it
stores each field through its slot descriptor instead (about half the time). Rules use it
on their unchecked path (every field given, already valid); everything else keeps calling
the class.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def builder(cls: type[T]) -> Callable[..., T]:
    """A constructor of ``cls`` (a frozen dataclass with ``slots=True``) taking every field,
    in declaration order, positionally: ``builder(Data)(a, b, c)`` equals ``Data(a, b, c)``.

    It runs no ``__post_init__`` and no default: the caller passes every field.
    """
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a dataclass with slots")
    names = [f.name for f in dataclasses.fields(cls)]
    arguments = ", ".join(names)
    # Fixed templates over the dataclass's own field names (identifiers).
    stores = "".join(f"        self.{name} = {name}\n" for name in names)
    twin_source = (f"class {cls.__name__}:\n    __slots__ = _slots\n"
                   f"    def __init__(self, {arguments}):\n{stores}"
                   f"        self.__class__ = _cls\n")
    namespace: dict[str, Any] = {"_slots": cls.__dict__["__slots__"], "_cls": cls}
    exec(twin_source, namespace)
    build: Callable[..., T] = namespace[cls.__name__]
    try:
        build(*(None for _ in names))
    except TypeError:  # the layouts differ (another interpreter): set through the slots
        setters = {f"_set_{name}": cls.__dict__[name].__set__ for name in names}
        body = "".join(f"    _set_{name}(o, {name})\n" for name in names)
        namespace = {"_new": object.__new__, "_cls": cls, **setters}
        exec(f"def build({arguments}):\n    o = _new(_cls)\n{body}    return o\n", namespace)
        build = namespace["build"]
    return build
