"""A play as a value: its steps, parsed and printed, and the position it reaches.

A *step* moves one checker by one die (``Step(24, 18)``, ``Step("bar", 22)``,
``Step(3, "off")``) in the absolute frame of RULES.md; a *play* is the whole turn. Like
python-chess's ``Move``, both are small immutable values that parse and print themselves,
and text that is not a step at all (syntax) is an :class:`~games.engine.errors.InvalidPlay`,
apart from a step that breaks a rule (:class:`~games.engine.errors.IllegalPlay`, raised
when a play is checked against a position: ``games.engine.moves``).

>>> Step.from_dict({"from": 24, "to": 18})
Step(src=24, dst=18)
>>> Step.from_dict({"from": 25, "to": 18})
Traceback (most recent call last):
...
games.engine.errors.InvalidPlay: 'from' must be a point 1-24 or "bar", not 25.
>>> from .moves import legal_plays
>>> from .position import Position
>>> play = legal_plays(Position.initial(), (3, 1))[0]
>>> play.to_list() == [s.to_dict() for s in play.steps]
True
>>> play.position = None
Traceback (most recent call last):
...
AttributeError: a Play is immutable
"""

from __future__ import annotations

import json
from typing import NamedTuple

from .errors import InvalidPlay
from .position import BLACK, WHITE, Position
from games.engine.errors import gettext_noop

BAR = "bar"
OFF = "off"


class Step(NamedTuple):
    """One checker moved by one die, absolute frame (``"bar"``/``"off"`` allowed)."""

    src: object
    dst: object

    def to_dict(self) -> dict:
        return {"from": self.src, "to": self.dst}

    @classmethod
    def from_dict(cls, data) -> "Step":
        """Parse ``{"from": p|"bar", "to": p|"off"}``; raises :class:`InvalidPlay`."""
        if not isinstance(data, dict) or "from" not in data or "to" not in data:
            raise InvalidPlay("bad_step", gettext_noop("Each step must be an object with 'from' and 'to'."))
        src, dst = data["from"], data["to"]
        if not (src == BAR or (type(src) is int and 1 <= src <= 24)):
            raise InvalidPlay("bad_step", gettext_noop("'from' must be a point 1-24 or \"bar\", not %(src)s."),
                    params={"src": repr(src)})
        if not (dst == OFF or (type(dst) is int and 1 <= dst <= 24)):
            raise InvalidPlay("bad_step", gettext_noop("'to' must be a point 1-24 or \"off\", not %(dst)s."),
                    params={"dst": repr(dst)})
        return cls(src, dst)

    def __str__(self) -> str:
        return f"{self.src}/{self.dst}"


def _to_abs(color: str, p: int, is_src: bool):
    """Mover-frame point (25 = bar, <= 0 = off) to the absolute frame."""
    if p >= 25:
        return BAR
    if p <= 0:
        return OFF
    return p if color == WHITE else 25 - p


# The wire form of a mover-frame step ``(src, dst)``, by colour: the absolute points as
# ``to_list`` gives them (``_WIRE_POINTS[color][p]``, src 1-25, dst 0-24 with 0 off) and the
# step's JSON text (``_WIRE_STEP[color][src][dst]``). A server sends every legal play of every
# turn, so each step is worked out once here, not once per play.
_WIRE_POINTS = {
    color: ([_to_abs(color, p, True) for p in range(26)], [_to_abs(color, p, False) for p in range(26)])
    for color in (WHITE, BLACK)
}
_WIRE_STEP = {
    color: [[json.dumps({"from": srcs[s], "to": dsts[d]}, separators=(",", ":")) for d in range(26)]
            for s in range(26)]
    for color, (srcs, dsts) in _WIRE_POINTS.items()
}


def _to_mover(color: str, p, is_src: bool) -> int:
    if p == BAR:
        return 25
    if p == OFF:
        return 0
    return p if color == WHITE else 25 - p


class Play:
    """A legal play: its steps (absolute frame) and, on demand, the position it reaches.

    Immutable: what is worked out on demand (the steps in the absolute frame, the resulting
    position) is kept, but nothing can be set from outside. Two plays are equal when they
    start from the same position and reach the same one (the order of the steps does not
    matter, as on the board)."""

    __slots__ = ("position", "color", "_msteps", "_steps", "_own", "_hits", "_result")

    def __init__(self, position: Position, color: str, mover_steps, own, hits, steps=None):
        set_ = object.__setattr__
        set_(self, "position", position)
        set_(self, "color", color)
        set_(self, "_msteps", mover_steps)
        set_(self, "_steps", tuple(steps) if steps is not None else None)
        set_(self, "_own", tuple(own))
        set_(self, "_hits", hits)
        set_(self, "_result", None)

    def __setattr__(self, name, value):
        raise AttributeError("a Play is immutable")

    __delattr__ = __setattr__

    @property
    def key(self) -> tuple:
        """What the play does: the mover's checkers after it and the points it hits."""
        return self._own, self._hits

    def __eq__(self, other) -> bool:
        return isinstance(other, Play) and self.position == other.position and self.key == other.key

    def __hash__(self) -> int:
        return hash((self.position, self.key))

    @property
    def steps(self) -> tuple:
        """The steps, absolute frame, one per die played."""
        if self._steps is None:
            color = self.color
            object.__setattr__(self, "_steps", tuple(
                Step(_to_abs(color, s, True), _to_abs(color, d, False)) for s, d, _die in self._msteps))
        return self._steps

    @property
    def dice_used(self) -> tuple:
        return tuple(die for _s, _d, die in self._msteps)

    @property
    def result(self) -> Position:
        """The position after the play, with the opponent on roll."""
        if self._result is None:
            object.__setattr__(self, "_result", _build_position(self.position, self.color, self._own, self._hits))
        return self._result

    def hit_points(self) -> frozenset:
        """Absolute points where this play hits a blot."""
        return frozenset(_to_abs(self.color, p, False) for p in range(1, 25) if self._hits >> p & 1)

    def to_list(self) -> list:
        """The steps as ``[{"from", "to"}, ...]`` (the wire form; built straight from the
        mover's frame: the server sends every legal play of every turn)."""
        srcs, dsts = _WIRE_POINTS[self.color]
        return [{"from": srcs[s], "to": dsts[d]} for s, d, _die in self._msteps]

    def __repr__(self) -> str:
        return "Play(" + " ".join(str(s) for s in self.steps) + ")"


def _build_position(pos: Position, color: str, own, hits: int) -> Position:
    board = list(pos.board)
    nhits = bin(hits).count("1")
    if color == WHITE:
        for p in range(1, 25):
            if own[p]:
                board[p] = own[p]
            elif board[p] > 0 or hits >> p & 1:
                board[p] = 0
        return Position(tuple(board), own[25], pos.black_bar + nhits, own[0], pos.black_off, BLACK)
    for p in range(1, 25):
        a = 25 - p
        if own[p]:
            board[a] = -own[p]
        elif board[a] < 0 or hits >> p & 1:
            board[a] = 0
    return Position(tuple(board), pos.white_bar + nhits, own[25], pos.white_off, own[0], WHITE)
