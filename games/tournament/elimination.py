"""What the bracket formats share (knock-out, double elimination, the knock-out after
groups): the draw, the resolved bracket, the pending matches, a view for pages and the
places of a finished or running bracket.

Places: the winner is 1st; everyone else by the round of the event in which they went
out, later first; those who went out in the same round share the place (2nd for a
losing finalist, 3rd for both losing semi-finalists, 5th for the quarter-finalists...),
listed by seed. Rank 1 stays empty when nobody won (a final that was a double forfeit).
Players still in have no place yet (rank None) and are listed first, those who have
come furthest first.

>>> from games.tournament import Knockout, Result
>>> ko = Knockout.new(["ann", "bob", "cy", "dee"]).record("M-R1-1", Result.played("dee"))
>>> [(s.rank, s.player, s.status) for s in ko.standings()]
[(None, 'dee', 'active'), (None, 'bob', 'active'), (None, 'cy', 'active'), (4, 'ann', 'out')]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from .bracket import DONE, PENDING, SETTLED, UNKNOWN, VOID, resolve
from .entrants import bracket_size
from .event import Event
from .records import Pairing, Standing
from .standings import ACTIVE, OUT, WITHDRAWN, tally


@dataclass(frozen=True)
class BracketEvent(Event):
    """A format played on a bracket (:mod:`games.tournament.bracket`). ``offset``: the
    rounds of the event played before this bracket starts (the groups' rounds)."""

    offset: int = 0

    STAGES: ClassVar[frozenset] = frozenset()  # the stages whose places are the event's standings

    def build(self) -> list:
        """The bracket's nodes, from the size of :attr:`draw` and the options."""
        raise NotImplementedError

    @property
    def final_key(self) -> str:
        """The match that decides the event."""
        raise NotImplementedError

    @property
    def size(self) -> int:
        """The bracket's places: the next power of two (2 at least)."""
        return bracket_size(len(self.draw))

    @property
    def winner(self):
        """The winner once the deciding match is settled (a consolation may still run)."""
        return self.champion_of(self.final_key)

    def standings(self) -> tuple:
        return self.places(self.STAGES, self.final_key)

    @property
    def draw(self) -> tuple:
        """The player of each seed, seed 1 first (None where a seed has nobody)."""
        by_seed = {e.seed: e.id for e in self.entrants}
        return tuple(by_seed.get(s) for s in range(1, max(by_seed) + 1))

    @cached_property
    def nodes(self) -> tuple:
        return tuple(self.build())

    @cached_property
    def slots(self) -> dict:
        """``{key: Slot}``: the bracket resolved from the draw and the results so far."""
        return resolve(self.nodes, self.draw, self.results, set(self.withdrawn))

    def pending(self) -> tuple:
        lengths = self.options.lengths
        out = []
        for slot in self.slots.values():
            if slot.status != PENDING:
                continue
            n, rnd = slot.node, slot.step + self.offset
            length = lengths.length(rnd, final=n.final, secondary=n.secondary)
            out.append(Pairing(n.key, slot.a, slot.b, rnd, length, n.stage, n.label))
        return tuple(out)

    @property
    def is_over(self) -> bool:
        return all(s.status in SETTLED for s in self.slots.values())

    def bracket(self) -> tuple:
        """Every match of the bracket as a plain dict (for drawing it), in order."""
        return tuple(s.to_dict() for s in self.slots.values())

    def champion_of(self, key: str):
        """The winner of the final ``key`` once it is settled (None: nobody won)."""
        slot = self.slots[key]
        if slot.status not in SETTLED or slot.winner is UNKNOWN:
            return None
        return slot.winner

    def places(self, stages, final: str) -> tuple:
        """The places of the players of ``stages`` whose last match is ``final`` (see the
        module docstring)."""
        champion = self.champion_of(final)
        empty_first = champion is None and self.slots[final].status in SETTLED
        last: dict = {}
        for slot in self.slots.values():
            if slot.node.stage not in stages:
                continue
            for p in (slot.a, slot.b):
                if p is not None and p is not UNKNOWN and (p not in last or slot.step >= last[p].step):
                    last[p] = slot
        counts = tally(last, [r for r in self.records if self.slots[r.key].node.stage in stages])
        gone, seeds = set(self.withdrawn), self.seeds

        def out(p) -> bool:
            slot = last[p]
            return p != champion and (slot.status == VOID or (slot.status == DONE and p != slot.winner))

        order = sorted(last, key=lambda p: (p != champion, out(p), -last[p].step, seeds.get(p, 0)))
        lines = []
        for p in order:
            if p == champion:
                rank = 1
            elif out(p):
                ahead = sum(1 for q in last if not out(q) or last[q].step > last[p].step)
                rank = 1 + ahead + empty_first
            else:
                rank = None
            t = counts[p]
            status = WITHDRAWN if p in gone else (OUT if out(p) else ACTIVE)
            lines.append(Standing(rank, p, t.wins, t.wins, t.losses, 0, points_diff=t.points, status=status))
        return tuple(lines)

    def extra_to_dict(self) -> dict:
        return {"offset": self.offset}

    @classmethod
    def from_dict(cls, data: dict):
        return cls(**cls.base_from_dict(data), offset=data.get("offset", 0))


__all__ = ["BracketEvent"]
