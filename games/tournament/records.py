"""The small values of a tournament: an entrant, a pairing, a result, a record.

All are immutable and JSON-ready (``to_dict``/``from_dict``, camelCase keys).
Players are opaque ids (integers or non-empty strings).

>>> Entrant("ann", rating=1712.5, seed=1).to_dict()
{'id': 'ann', 'rating': 1712.5, 'seed': 1}
>>> p = Pairing("R1-1", "ann", "bob", round=1, length=7)
>>> p.players, p.is_bye
(('ann', 'bob'), False)

A result says who won and how; ``score`` is (winner's points, loser's points):

>>> Result.played("bob", score=(7, 4)).points_for("bob"), Result.played("bob", score=(7, 4)).points_for("ann")
(3, -3)
>>> Result.forfeit("ann").points_for("ann")
0
>>> Result.double_forfeit().winner is None
True
>>> Result.played("ann", score=(3, 7))
Traceback (most recent call last):
...
games.tournament.errors.TournamentError: The winner of a played match has more points than the loser.
>>> r = Record(p, Result.awarded("ann", score=(4, 5)))
>>> Record.from_dict(r.to_dict()) == r, r.loser
(True, 'bob')
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.wire import from_wire, to_wire

from .errors import TournamentError, check_player
from games.engine.errors import gettext_noop

# -- how a match was decided ------------------------------------------------------------
PLAYED = "played"  # played to the end on the board
FORFEIT = "forfeit"  # one player did not come (or withdrew): the other wins
DOUBLE_FORFEIT = "double_forfeit"  # neither came: both lose
AWARDED = "awarded"  # a director gave the match to one player (a score may be kept)
BYE = "bye"  # nobody to play: a Swiss bye, worth a win
KINDS = (PLAYED, FORFEIT, DOUBLE_FORFEIT, AWARDED, BYE)


@dataclass(frozen=True)
class Entrant:
    """One player in an event: ``id``, an optional ``rating`` and the ``seed`` (1 is the
    top seed) given by :func:`games.tournament.entrants.seeded`."""

    id: object
    rating: float | None = None
    seed: int | None = None

    def __post_init__(self):
        check_player(self.id)
        if self.rating is not None and type(self.rating) not in (int, float):
            raise TournamentError("bad_rating", gettext_noop("A rating must be a number or none."))
        if self.seed is not None and (type(self.seed) is not int or self.seed < 1):
            raise TournamentError("bad_seed", gettext_noop("A seed must be a whole number from 1."))

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Entrant":
        return from_wire(cls, data)


@dataclass(frozen=True)
class Pairing:
    """A match to play: ``key`` names it in its event (stable, stored by the server),
    ``a`` against ``b`` (``b`` None: a bye), in ``round`` (the event's step in which it is
    played), to ``length`` points. ``stage`` says which part of the event it belongs to
    (main, consolation, winners, losers, final, group, swiss, arena) and ``label`` is
    readable ("Semi-final", "Group B, round 2")."""

    key: str
    a: object
    b: object
    round: int
    length: int
    stage: str = "main"
    label: str = ""

    @property
    def players(self) -> tuple:
        return (self.a,) if self.b is None else (self.a, self.b)

    @property
    def is_bye(self) -> bool:
        return self.b is None

    def other(self, player):
        """The opponent of ``player`` in this pairing."""
        if player == self.a:
            return self.b
        if player == self.b:
            return self.a
        raise TournamentError("not_in_pairing", gettext_noop("%(player)s does not play in %(key)s."),
                params={"player": repr(player), "key": self.key})

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Pairing":
        return from_wire(cls, data)


@dataclass(frozen=True)
class Result:
    """How a match was decided (see the kinds above). ``score`` is ``(winner's points,
    loser's points)`` or None (forfeits have none; awards may keep the score reached)."""

    kind: str
    winner: object = None
    score: tuple | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise TournamentError("bad_result", gettext_noop("A result is one of %(value)s."),
                    params={"value": ', '.join(KINDS)})
        if (self.winner is None) != (self.kind == DOUBLE_FORFEIT):
            raise TournamentError("bad_result", gettext_noop("Every result but a double forfeit names its winner."))
        if self.score is None:
            return
        if self.kind not in (PLAYED, AWARDED):
            raise TournamentError("bad_score", gettext_noop("Only a played or awarded match has a score."))
        score = tuple(self.score)
        if len(score) != 2 or any(type(s) is not int or s < 0 for s in score):
            raise TournamentError("bad_score", gettext_noop("A score is two whole numbers of points, winner's first."))
        if self.kind == PLAYED and score[0] <= score[1]:
            raise TournamentError("bad_score", gettext_noop("The winner of a played match has more points than the loser."))
        object.__setattr__(self, "score", score)

    @classmethod
    def played(cls, winner, score=None) -> "Result":
        return cls(PLAYED, winner, score)

    @classmethod
    def forfeit(cls, winner) -> "Result":
        return cls(FORFEIT, winner)

    @classmethod
    def double_forfeit(cls) -> "Result":
        return cls(DOUBLE_FORFEIT)

    @classmethod
    def awarded(cls, winner, score=None) -> "Result":
        return cls(AWARDED, winner, score)

    def points_for(self, player) -> int:
        """``player``'s points difference from this match (0 without a score)."""
        if self.score is None:
            return 0
        margin = self.score[0] - self.score[1]
        return margin if player == self.winner else -margin

    def to_dict(self) -> dict:
        return {"kind": self.kind, "winner": self.winner, "score": None if self.score is None else list(self.score)}

    @classmethod
    def from_dict(cls, data: dict) -> "Result":
        score = data.get("score")
        return cls(data["kind"], data.get("winner"), None if score is None else tuple(score))


@dataclass(frozen=True)
class Record:
    """A decided pairing: the pairing as it was played and its result."""

    pairing: Pairing
    result: Result

    def __post_init__(self):
        if self.result.winner is not None and self.result.winner not in self.pairing.players:
            raise TournamentError("bad_winner", gettext_noop("The winner must be one of %(list)s."),
                    params={"list": list(self.pairing.players)})
        if (self.result.kind == BYE) != self.pairing.is_bye:
            raise TournamentError("bad_result", gettext_noop("Only a bye is decided by a bye."))

    @property
    def key(self) -> str:
        return self.pairing.key

    @property
    def loser(self):
        """The player who lost (None: a bye; for a double forfeit, see :attr:`losers`)."""
        losers = self.losers
        return losers[0] if len(losers) == 1 else None

    @property
    def losers(self) -> tuple:
        if self.result.kind == DOUBLE_FORFEIT:
            return self.pairing.players
        return tuple(p for p in self.pairing.players if p != self.result.winner)

    def to_dict(self) -> dict:
        return {"pairing": self.pairing.to_dict(), "result": self.result.to_dict()}

    @classmethod
    def from_dict(cls, data: dict) -> "Record":
        return cls(Pairing.from_dict(data["pairing"]), Result.from_dict(data["result"]))


@dataclass(frozen=True)
class Standing:
    """One line of a table. ``rank`` is shared by players that every tie-break leaves
    equal (None: not decided yet, in a bracket still running); ``score`` is the
    format's count of success: match wins (arena: points). ``buchholz`` (Swiss: opponents'
    match wins) and ``head_to_head`` (round robin: wins among the players tied on score)
    are None where the format does not use them. ``status``: active, out, withdrawn."""

    rank: int | None
    player: object
    score: int
    wins: int
    losses: int
    byes: int = 0
    buchholz: int | None = None
    head_to_head: int | None = None
    points_diff: int = 0
    status: str = "active"

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Standing":
        return from_wire(cls, data)


__all__ = ["Entrant", "Pairing", "Result", "Record", "Standing",
           "PLAYED", "FORFEIT", "DOUBLE_FORFEIT", "AWARDED", "BYE", "KINDS"]
