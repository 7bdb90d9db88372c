"""Swiss: every round pairs players on the same score, nobody meets the same opponent
twice while that can be avoided, and the table decides.

Pairing (Dutch style), when the round before is complete:

1. The players still in (not withdrawn) are ordered by match wins, then by seed.
2. With an odd number, one sits out with a **bye**, worth a match win (no points
   difference, nothing to Buchholz): the lowest-placed player in the table among those
   with the fewest byes, so nobody has a second bye while someone still in has none.
   If giving it to them would force a repeat pairing that another of those players'
   bye avoids, the next of them up the table gets it.
3. Each score group, best first, pairs its top half against its bottom half (1st v
   (n/2+1)th...), skipping an opponent already met for the next one; a group of odd
   size floats its lowest player down to the next group, and so does anyone the group
   could not pair. If the groups leave players who could only meet old opponents, the
   pairing of the whole round is completed by a maximum matching
   (:mod:`games.tournament.pairing`), so no pair meets again unless every pairing of
   the field would have as many repeats.
4. Table 1 is the best-placed pair. Colours do not matter in backgammon.

The table: match wins, then Buchholz (the sum of the match wins of every opponent
paired against, forfeits included, byes not), then points difference (from the scores
recorded; forfeits count none), then seed. The winner is the first of the table once
the last round is complete. Players may enter late (0 wins, seeded after the field);
a withdrawn player forfeits the match they are in and is paired no more.

>>> sw = Swiss.new(["ann", "bob", "cy", "dee", "eve"], SwissOptions(seeding="given"))
>>> sw.total_rounds, sw.can_pair
(3, True)
>>> sw = sw.pair_next_round()
>>> [(p.key, p.a, p.b) for p in sw.round_pairings(1)]
[('R1-1', 'ann', 'cy'), ('R1-2', 'bob', 'dee'), ('R1-bye', 'eve', None)]
>>> sw = sw.record("R1-1", Result.played("cy", (7, 3))).record("R1-2", Result.played("bob", (7, 6)))

Round 2: bob, cy and eve have a win; eve floats down to dee; ann, last in the table
(dee lost by less), has the bye:

>>> sw = sw.pair_next_round()
>>> [(p.key, p.a, p.b) for p in sw.round_pairings(2)]
[('R2-1', 'bob', 'cy'), ('R2-2', 'eve', 'dee'), ('R2-bye', 'ann', None)]
>>> Swiss.from_dict(sw.to_dict()) == sw
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .errors import TournamentError
from .event import Event
from .options import SwissOptions
from .pairing import DUTCH, pair_field
from .records import BYE, Entrant, Pairing, Record, Result
from .entrants import as_entrant
from .standings import swiss_table, tally
from games.engine.errors import gettext_noop

STAGE = "swiss"


@dataclass(frozen=True)
class Swiss(Event):
    """A Swiss event (see the module docstring). ``rounds``: the pairings of each round
    paired so far, byes included."""

    FORMAT = "swiss"
    OPTIONS = SwissOptions

    rounds: tuple = ()

    @classmethod
    def new(cls, entrants, options: SwissOptions | None = None, *, rng=None) -> "Swiss":
        """A Swiss not yet paired; without ``options.rounds``, as many rounds as it takes
        to leave one player unbeaten: log2 of the field, rounded up."""
        event = super().new(entrants, options, rng=rng)
        if event.options.rounds is not None:
            return event
        return replace(event, options=replace(event.options, rounds=max(1, math.ceil(math.log2(len(event.entrants))))))

    # -- queries ------------------------------------------------------------------------
    @property
    def total_rounds(self) -> int:
        return self.options.rounds

    @property
    def current_round(self) -> int:
        """The last round paired (0 before the first)."""
        return len(self.rounds)

    def round_pairings(self, number: int) -> tuple:
        if not 1 <= number <= len(self.rounds):
            raise TournamentError("no_such_round", gettext_noop("Round %(number)s has not been paired."),
                    params={"number": number})
        return self.rounds[number - 1]

    def round_complete(self) -> bool:
        """Whether every match of the current round has its result."""
        if not self.rounds:
            return True
        done = self.results
        return all(p.key in done for p in self.rounds[-1])

    @property
    def can_pair(self) -> bool:
        return self.current_round < self.total_rounds and len(self.active) >= 2 and self.round_complete()

    @property
    def is_over(self) -> bool:
        return self.round_complete() and (self.current_round >= self.total_rounds or len(self.active) < 2)

    def pending(self) -> tuple:
        if not self.rounds:
            return ()
        done = self.results
        return tuple(p for p in self.rounds[-1] if p.key not in done)

    def standings(self) -> tuple:
        return tuple(swiss_table(self.players, self.records, seeds=self.seeds, withdrawn=set(self.withdrawn)))

    @property
    def winner(self):
        return self.standings()[0].player if self.is_over and self.records else None

    # -- actions ------------------------------------------------------------------------
    def pair_next_round(self) -> "Swiss":
        """Pair the next round (see the module docstring)."""
        if self.current_round >= self.total_rounds or len(self.active) < 2:
            raise TournamentError("event_over", gettext_noop("Every round has been paired."))
        if not self.round_complete():
            raise TournamentError("round_not_finished", gettext_noop("The current round still has matches to finish."))
        number = self.current_round + 1
        active = set(self.active)
        counts = tally(self.players, self.records)
        order = sorted(self.active, key=lambda p: (-counts[p].wins, self.seeds[p]))
        met = {p: set(counts[p].opponents) for p in order}
        table = [s.player for s in self.standings() if s.player in active]
        fewest = min(counts[p].byes for p in order)
        sitout = [p for p in reversed(table) if counts[p].byes == fewest]
        draw = pair_field(order, met, style=DUTCH, groups=[counts[p].wins for p in order], sitout=sitout)
        length = self.options.lengths.length(number)
        pairings = tuple(Pairing(f"R{number}-{t}", a, b, number, length, STAGE, f"Round {number}, table {t}")
                         for t, (a, b) in enumerate(draw.pairs, 1))
        records = ()
        if draw.sitout is not None:
            bye = Pairing(f"R{number}-bye", draw.sitout, None, number, length, STAGE, f"Round {number}, bye")
            pairings += (bye,)
            records = (Record(bye, Result(BYE, draw.sitout)),)
        return replace(self, rounds=self.rounds + (pairings,), records=self.records + records).settled()

    def unpair_round(self) -> "Swiss":
        """Take back the current round's pairing while none of its matches has a result
        (a director re-pairs a round not yet started)."""
        if not self.rounds:
            raise TournamentError("nothing_to_unpair", gettext_noop("No round has been paired."))
        keys = {p.key for p in self.rounds[-1]}
        if any(r.key in keys and r.result.kind != BYE for r in self.records):
            raise TournamentError("round_started", gettext_noop("A match of this round has a result already."))
        return replace(self, rounds=self.rounds[:-1], records=tuple(r for r in self.records if r.key not in keys))

    def add_entrant(self, entrant) -> "Swiss":
        """A late entry: paired from the next round on, with no wins, seeded last."""
        entrant = as_entrant(entrant)
        if entrant.id in self.seeds:
            raise TournamentError("duplicate_entrant", gettext_noop("A player can enter an event only once."))
        if self.current_round >= self.total_rounds:
            raise TournamentError("event_over", gettext_noop("Every round has been paired."))
        late = Entrant(entrant.id, entrant.rating, len(self.entrants) + 1)
        return replace(self, entrants=self.entrants + (late,))

    # -- storage ------------------------------------------------------------------------
    def extra_to_dict(self) -> dict:
        return {"rounds": [[p.to_dict() for p in r] for r in self.rounds]}

    @classmethod
    def from_dict(cls, data: dict) -> "Swiss":
        base = cls.base_from_dict(data)
        return cls(**base, rounds=tuple(tuple(Pairing.from_dict(p) for p in r) for r in data["rounds"]))


__all__ = ["Swiss"]
