"""Groups of round robin, then a knock-out of the best of each group.

- **Groups**: as many groups as it takes to keep them to ``group_size`` players
  (sizes differ by one at most), filled by seed in a snake: seeds 1, 2, 3, 4 to groups
  A, B, C, D, then seeds 5, 6, 7, 8 to D, C, B, A, and so on. Each group is a
  :mod:`round robin <games.tournament.roundrobin>` (keys ``GA-R1-1``...).
- **Qualifiers**: the best ``advance`` of each group's table who have not withdrawn
  (a group short of them leaves an empty place: a bye in the knock-out).
- **The knock-out** (:mod:`games.tournament.knockout`, keys ``M-...``, consolation as
  its option) is drawn once every group match is decided. Group winners take seeds 1
  to G (group A's first), runners-up seeds G+1 to 2G, and so on; each qualifier takes
  the free seed of their tier that puts them furthest from the players of their own
  group already placed (so two players of a group meet as late as possible: with two
  qualifiers a group, in different halves, i.e. only in the final, whenever the number
  of groups is a power of two), and among equals the seed nearest to the usual
  order (the best winner meets the weakest runner-up). Its rounds follow the groups'.

Places: the knock-out's places first, then those who did not qualify, by their place
in their group, then match wins, then points difference (shared when all are equal).

>>> from games.tournament import Result
>>> ev = GroupsKnockout.new([f"p{i}" for i in range(1, 9)], GroupsOptions(seeding="given"))
>>> [g.players for g in ev.groups]
[('p1', 'p4', 'p5', 'p8'), ('p2', 'p3', 'p6', 'p7')]
>>> while ev.knockout is None:
...     for p in ev.pending():
...         ev = ev.record(p.key, Result.played(p.a))
>>> [(p.key, p.round, p.a, p.b) for p in ev.pending()]
[('M-R1-1', 4, 'p1', 'p3'), ('M-R1-2', 4, 'p2', 'p4')]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property

from .entrants import bracket_order, bracket_size, meeting_round
from .event import Event
from .knockout import Knockout
from .options import GroupsOptions, KnockoutOptions, RoundRobinOptions
from .records import Entrant
from .roundrobin import RoundRobin
from .standings import ACTIVE, OUT, WITHDRAWN, ranked


def group_name(index: int, count: int) -> str:
    return chr(ord("A") + index) if count <= 26 else str(index + 1)


def snake(players: tuple, count: int) -> list:
    """``players`` (in seed order) dealt into ``count`` groups in a snake."""
    groups = [[] for _ in range(count)]
    for i, p in enumerate(players):
        row, col = divmod(i, count)
        groups[col if row % 2 == 0 else count - 1 - col].append(p)
    return groups


def knockout_seeds(qualifiers: list, advance: int) -> tuple:
    """The knock-out draw (the player of each seed, None where empty) from
    ``qualifiers``: per group, its qualifiers best first (see the module docstring)."""
    count = len(qualifiers)
    size = bracket_size(count * advance)
    position = {s: i for i, s in enumerate(bracket_order(size))}
    draw: dict = {}
    placed: dict = {}  # group -> positions of its players placed so far
    for tier in range(advance):
        free = set(range(tier * count + 1, (tier + 1) * count + 1))
        for g, group in enumerate(qualifiers):
            if tier >= len(group):
                continue
            natural = tier * count + (g + 1 if tier % 2 == 0 else count - g)

            def merit(s: int) -> tuple:
                rounds = [meeting_round(position[s], q) for q in placed.get(g, [])]
                return (-min(rounds, default=99), abs(s - natural), s)

            best = min(free, key=merit)
            free.discard(best)
            draw[best] = group[tier]
            placed.setdefault(g, []).append(position[best])
    return tuple(draw.get(s) for s in range(1, count * advance + 1))


@dataclass(frozen=True)
class GroupsKnockout(Event):
    """Groups then a knock-out (see the module docstring). ``knockout_draw``: the
    knock-out's player of each seed, once the groups are over."""

    FORMAT = "groups"
    OPTIONS = GroupsOptions

    knockout_draw: tuple | None = None

    @cached_property
    def groups(self) -> tuple:
        """Each group's round robin (its results are this event's records)."""
        count = math.ceil(len(self.entrants) / self.options.group_size)
        by_id = {e.id: e for e in self.entrants}
        options = RoundRobinOptions(lengths=self.options.lengths, seeding="given")
        out = []
        for i, members in enumerate(snake(self.players, count)):
            name = group_name(i, count)
            prefix = f"G{name}-"
            out.append(RoundRobin(tuple(by_id[p] for p in members), options,
                                  tuple(r for r in self.records if r.key.startswith(prefix)),
                                  tuple(p for p in self.withdrawn if p in members), prefix, f"Group {name}"))
        return tuple(out)

    @property
    def group_rounds(self) -> int:
        return max(g.rounds_total for g in self.groups)

    @cached_property
    def knockout(self) -> Knockout | None:
        """The knock-out, once drawn."""
        if not self.knockout_draw or not any(p is not None for p in self.knockout_draw):
            return None
        qualifiers = {p for p in self.knockout_draw if p is not None}
        options = KnockoutOptions(lengths=self.options.lengths, consolation=self.options.consolation, seeding="given")
        entrants = tuple(Entrant(p, seed=s) for s, p in enumerate(self.knockout_draw, 1) if p is not None)
        records = tuple(r for r in self.records if not r.key.startswith("G"))
        withdrawn = tuple(p for p in self.withdrawn if p in qualifiers)
        return Knockout(entrants, options, records, withdrawn, offset=self.group_rounds)

    def group_standings(self) -> dict:
        return {g.name: g.standings() for g in self.groups}

    def qualifiers(self) -> list:
        gone = set(self.withdrawn)
        return [[s.player for s in g.standings() if s.player not in gone][: self.options.advance] for g in self.groups]

    # -- the format's protocol ------------------------------------------------------------
    def pending(self) -> tuple:
        out = tuple(p for g in self.groups for p in g.pending())
        return out + (self.knockout.pending() if self.knockout else ())

    def walkovers(self) -> tuple:
        out = tuple(p for g in self.groups for p in g.walkovers())
        return out + (self.knockout.walkovers() if self.knockout else ())

    def settled(self) -> "GroupsKnockout":
        event = Event.settled(self)
        if event.knockout_draw is None and all(g.is_over for g in event.groups):
            event = replace(event, knockout_draw=knockout_seeds(event.qualifiers(), event.options.advance))
            event = Event.settled(event)
        return event

    @property
    def is_over(self) -> bool:
        if self.knockout_draw is None:
            return False
        return self.knockout is None or self.knockout.is_over

    @property
    def winner(self):
        return self.knockout.winner if self.knockout and self.is_over else None

    def standings(self) -> tuple:
        """The knock-out's places, then everyone else by group place, match wins and
        points difference; while the groups run nobody has a place yet (rank None)."""
        place = {s.player: s.rank for g in self.groups for s in g.standings()}
        ko = self.knockout.standings() if self.knockout else ()
        qualified = {s.player for s in ko}
        rest = sorted((s for g in self.groups for s in g.standings() if s.player not in qualified),
                      key=lambda s: self.seeds[s.player])
        rest = ranked(rest, key=lambda s: (place[s.player], -s.score, -s.points_diff))
        gone = set(self.withdrawn)
        drawn = self.knockout_draw is not None
        return tuple(ko) + tuple(
            replace(s, rank=s.rank + len(ko) if drawn else None,
                    status=WITHDRAWN if s.player in gone else (OUT if drawn else ACTIVE))
            for s in rest)

    # -- storage --------------------------------------------------------------------------
    def extra_to_dict(self) -> dict:
        return {"knockoutDraw": None if self.knockout_draw is None else list(self.knockout_draw)}

    @classmethod
    def from_dict(cls, data: dict) -> "GroupsKnockout":
        draw = data.get("knockoutDraw")
        return cls(**cls.base_from_dict(data), knockout_draw=None if draw is None else tuple(draw))


__all__ = ["GroupsKnockout", "knockout_seeds", "snake", "group_name"]
