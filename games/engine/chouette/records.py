"""The records of one chouette game: cubes, payments, settlement offers, pending
decisions and the final result (everything JSON-ready, camelCase).

Each cube is a two-party money game sharing the one board: a team-side
``holder`` (its member; the captain after rule 3; the last member after rule 4)
against a box-side ``opponent`` (the box; after rule 4 the member who dropped
it). Every point that changes hands is a :class:`Payment`, so a game's result
is the sum of its payments and always sums to zero.

>>> c = Cube(member=7, holder=7, opponent=1)
>>> c.in_play, c.value, c.owner
(True, 1, None)
>>> Cube.from_dict(c.to_dict()) == c
True
>>> Payment(7, 1, 2, "drop", 7).to_dict()
{'payer': 7, 'payee': 1, 'points': 2, 'reason': 'drop', 'cube': 7}
"""

from __future__ import annotations

from dataclasses import dataclass

from ..wire import from_wire, to_wire
from .rules import (
    BOUGHT_BY_CAPTAIN,
    BOUGHT_BY_LAST_MEMBER,
    BOX,
    DROPPED,
    END_BEAROFF,
    END_DROP,
    END_FORFEIT,
    END_SETTLEMENT,
    TEAM,
)


@dataclass(frozen=True)
class Cube:
    """One team member's cube against the box (see the module docstring)."""

    member: object  # whose cube it is: its id in every action's ``cube`` field
    holder: object  # team-side player playing it now
    opponent: object  # box-side player: the box, or (rule 4) the member who dropped it
    value: int = 1
    owner: str | None = None  # None (centred), "team" or "box"
    turned: bool = False  # its own value was turned (Jacoby counts per cube)
    stage: str | None = None  # offered / beavered / dropped: a decision is pending
    doubled_by: str | None = None  # the side that doubled it in the current round
    round_value: int | None = None  # its value before the current round's double
    bought: str | None = None  # None, "captain" (rule 3) or "last_member" (rule 4)
    dropped_by: object = None  # who dropped it before it was bought
    drop_value: int | None = None  # the value it was dropped at before it was bought
    end: str | None = None  # None (in play), bearoff, drop, settlement, forfeit
    winner: str | None = None  # side that won it (None: in play, or settled at 0)
    kind: str | None = None  # single / gammon / backgammon on the board
    points: int = 0  # what the holder won (negative: lost) when it ended

    @property
    def in_play(self) -> bool:
        return self.end is None and self.stage != DROPPED

    def party(self, player) -> str | None:
        """The side ``player`` plays on this cube (None: not a party)."""
        if player == self.holder:
            return TEAM
        if player == self.opponent:
            return BOX
        return None

    def player_on(self, side: str):
        return self.holder if side == TEAM else self.opponent

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Cube":
        return from_wire(cls, data)


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``payee`` ``points`` (always > 0) because of ``reason`` on ``cube``.

    Reasons: ``drop`` (a dropped double), ``buy`` (rule 3: the dropper pays the
    captain), ``last_member`` (rule 4: the dropper pays the last member),
    ``settlement`` (rule 5), ``bearoff`` (the board result), ``forfeit``.
    """

    payer: object
    payee: object
    points: int
    reason: str
    cube: object

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Payment":
        return from_wire(cls, data)


@dataclass(frozen=True)
class Offer:
    """An open settlement offer (rule 5): ``proposer`` receives ``amount`` (negative:
    pays) from the other party of ``cube`` if that party accepts."""

    cube: object
    proposer: object
    amount: int

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Offer":
        return from_wire(cls, data)


@dataclass(frozen=True)
class Pending:
    """Someone the game waits for: ``player`` (None: the server's opening roll),
    a stable ``reason`` and the cubes concerned (member ids)."""

    player: object
    reason: str
    cubes: tuple = ()

    def to_dict(self) -> dict:
        return {"player": self.player, "reason": self.reason, "cubes": list(self.cubes)}

    @classmethod
    def from_dict(cls, data: dict) -> "Pending":
        return cls(data["player"], data["reason"], tuple(data["cubes"]))


# -- one member's line in a result ------------------------------------------------
HOW_WON = "won"  # on the board (or the box forfeited)
HOW_LOST = "lost"
HOW_DROPPED = "dropped"  # the member dropped the box's double
HOW_BOX_DROPPED = "box_dropped"  # the box dropped the member's double
HOW_SETTLED = "settled"
HOW_SOLD_TO_CAPTAIN = "sold_to_captain"  # rule 3
HOW_SOLD_TO_LAST_MEMBER = "sold_to_last_member"  # rule 4


@dataclass(frozen=True)
class MemberResult:
    """How one team member's own cube ended, for the session log.

    ``cube_value``/``cube_owner`` are the cube as the member last held it (for a
    cube sold under rule 3 or 4: the value it was dropped at); ``points`` is the
    member's net result for the whole game (every payment, bought cubes included).
    """

    player: object
    cube_value: int
    cube_owner: str | None
    how: str
    kind: str | None
    points: int

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "MemberResult":
        return from_wire(cls, data)


def member_how(cube: Cube, member) -> tuple:
    """``(how, value, owner, kind)`` of ``member``'s own cube at the end."""
    if cube.dropped_by == member and cube.bought is not None:
        how = HOW_SOLD_TO_CAPTAIN if cube.bought == BOUGHT_BY_CAPTAIN else HOW_SOLD_TO_LAST_MEMBER
        # the box doubled it: it was centred (value 1) or the box's
        return how, cube.drop_value, None if cube.drop_value == 1 else BOX, None
    if cube.end == END_SETTLEMENT:
        return HOW_SETTLED, cube.value, cube.owner, None
    if cube.end == END_DROP:
        how = HOW_BOX_DROPPED if cube.winner == TEAM else HOW_DROPPED
        return how, cube.value, cube.owner, None
    if cube.end in (END_BEAROFF, END_FORFEIT):
        return (HOW_WON if cube.winner == TEAM else HOW_LOST), cube.value, cube.owner, cube.kind
    raise AssertionError(f"cube {cube.member!r} has not ended")  # pragma: no cover


@dataclass(frozen=True)
class ChouetteResult:
    """A finished game: who played, how it ended, every cube and every payment.

    ``box_holds`` tells the session's rotation whether the box stays;
    ``final_captain`` is the captain when the game ended (who takes the box
    when it does not hold). ``scores`` lists ``(player, points)`` for the box
    and every team member, in line order; they sum to zero.
    """

    box: object
    team: tuple
    first_captain: object
    final_captain: object
    ending: str
    board_winner: str | None
    box_holds: bool
    cubes: tuple
    payments: tuple
    scores: tuple

    def points_of(self, player) -> int:
        for who, points in self.scores:
            if who == player:
                return points
        return 0

    @property
    def members(self) -> tuple:
        """One :class:`MemberResult` per team member, in team order."""
        out = []
        for cube in self.cubes:
            how, value, owner, kind = member_how(cube, cube.member)
            out.append(MemberResult(cube.member, value, owner, how, kind, self.points_of(cube.member)))
        return tuple(out)

    def lines(self, name=str) -> list:
        """A human-readable summary, one line per player (for the session log);
        ``name(player)`` spells a player (default: the id as given)."""
        out = [f"box {name(self.box)}: {self.points_of(self.box):+d}"
               + (" (holds the box)" if self.box_holds else f" (loses the box to {name(self.final_captain)})")]
        for m in self.members:
            owner = {None: "centred", TEAM: "owned by the member", BOX: "owned by the box"}[m.cube_owner]
            kind = f" {m.kind}" if m.kind else ""
            role = " (captain)" if m.player == self.first_captain else ""
            out.append(f"{name(m.player)}{role}: cube {m.cube_value} {owner}, {m.how}{kind}: {m.points:+d}")
        return out

    def to_dict(self) -> dict:
        return {
            "box": self.box,
            "team": list(self.team),
            "firstCaptain": self.first_captain,
            "finalCaptain": self.final_captain,
            "ending": self.ending,
            "boardWinner": self.board_winner,
            "boxHolds": self.box_holds,
            "cubes": [c.to_dict() for c in self.cubes],
            "payments": [p.to_dict() for p in self.payments],
            "scores": [[who, pts] for who, pts in self.scores],
            "members": [m.to_dict() for m in self.members],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "ChouetteResult":
        return cls(
            box=data["box"],
            team=tuple(data["team"]),
            first_captain=data["firstCaptain"],
            final_captain=data["finalCaptain"],
            ending=data["ending"],
            board_winner=data["boardWinner"],
            box_holds=data["boxHolds"],
            cubes=tuple(Cube.from_dict(c) for c in data["cubes"]),
            payments=tuple(Payment.from_dict(p) for p in data["payments"]),
            scores=tuple((who, pts) for who, pts in data["scores"]),
        )


def net_points(payments, players) -> tuple:
    """``(player, net)`` for ``players`` from the ledger ``payments``."""
    net = {p: 0 for p in players}
    for pay in payments:
        net[pay.payer] = net.get(pay.payer, 0) - pay.points
        net[pay.payee] = net.get(pay.payee, 0) + pay.points
    return tuple((p, net[p]) for p in players)
