"""camelCase wire dicts for the engine's flat option dataclasses.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Opts:
...     cube_limit: int = 64
...     last_roll: bool = False
>>> to_wire(Opts())
{'cubeLimit': 64, 'lastRoll': False}
>>> from_wire(Opts, {'cubeLimit': 8, 'lastRoll': True})
Opts(cube_limit=8, last_roll=True)
"""

from __future__ import annotations

from dataclasses import fields
from functools import cache


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


@cache
def _names(cls) -> tuple:
    """``((field, wire key), ...)`` of a dataclass, worked out once per class (a game's
    state is written and read on every move)."""
    return tuple((f.name, camel(f.name)) for f in fields(cls))


def to_wire(obj) -> dict:
    """Every field of the dataclass ``obj``, keyed in camelCase."""
    return {key: getattr(obj, name) for name, key in _names(type(obj))}


def from_wire(cls, data: dict):
    """Build ``cls`` from :func:`to_wire`'s dict (every field must be present)."""
    return cls(**{name: data[key] for name, key in _names(cls)})
