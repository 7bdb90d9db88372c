"""Arena: from ``start`` to ``end``, whoever is free is paired again at once.

- **The pool**: every entrant waits in the pool from the start (a late entrant from
  the moment they join). When :meth:`Arena.pair` is called (the server calls it
  whenever someone comes back to the pool, and now and then), the players waiting are
  paired: ordered by score, then rating, then seed, each meets the nearest in that
  order (1 v 2, 3 v 4), except that two players who have just met each other (either
  one's last opponent) are not paired again while another pairing avoids it
  (:mod:`games.tournament.pairing`). With an odd pool the player who came back last
  waits for the next call (of those who came together, the lowest in that order),
  unless someone else's waiting avoids a rematch. Two players who can only be paired with each other again are
  paired only once both have waited ``rematch_wait`` seconds.
- **Points**: a loss scores 0; a win scores ``win_points`` (2), doubled (4) when the
  player has won the ``streak`` (2) matches before it in a row: the third win in a row
  and every one after it score double, until a loss (as lichess arenas do). A win by
  forfeit or award counts as a win; a double forfeit as a loss for both.
- **Absence**: a player who lost by forfeit (or in a double forfeit) did not come: they
  are paused, out of the pool until :meth:`Arena.resume`. A player may pause and
  resume; a withdrawn player forfeits the match they are in and keeps their points.
- **The end**: at ``end`` nobody is paired any more; the matches still running count
  when they finish. The event is over once the end has passed and every match is done.
- **The leaderboard**: points, then match wins, then seed.

Times are seconds (any epoch the caller keeps to) passed in by the caller.

>>> arena = Arena.new(["ann", "bob", "cy"], ArenaOptions(start=0, end=3600, seeding="given"))
>>> arena = arena.pair(now=0)
>>> [(p.key, p.a, p.b) for p in arena.pending()], arena.waiting
([('A-1', 'ann', 'bob')], ('cy',))

Bob wins; ann and bob came back together, ann (lower on points) waits:

>>> arena = arena.record("A-1", Result.played("bob", (5, 2)), now=600).pair(now=600)
>>> [(p.key, p.a, p.b) for p in arena.pending()], arena.waiting
([('A-2', 'bob', 'cy')], ('ann',))

Bob wins again; he has just met both of the others, so he waits:

>>> arena = arena.record("A-2", Result.played("bob"), now=900).pair(now=900)
>>> [(p.key, p.a, p.b) for p in arena.pending()], arena.waiting
([('A-3', 'ann', 'cy')], ('bob',))
>>> arena = arena.record("A-3", Result.played("cy"), now=1000).pair(now=1000)
>>> arena = arena.record("A-4", Result.played("bob"), now=1300)

His third win in a row scores double:

>>> [(s.rank, s.player, s.score) for s in arena.standings()], arena.sheet("bob")
([(1, 'bob', 8), (2, 'cy', 2), (3, 'ann', 0)], (2, 2, 4))
>>> arena = arena.tick(3600)
>>> arena.is_over, arena.winner
(True, 'bob')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from .entrants import as_entrant
from .errors import TournamentError
from .event import Event
from .options import ArenaOptions
from .pairing import ADJACENT, pair_field
from .records import DOUBLE_FORFEIT, FORFEIT, Entrant, Pairing, Record, Result, Standing
from .standings import ACTIVE, WITHDRAWN, ranked, tally
from games.engine.errors import gettext_noop

STAGE = "arena"


@dataclass(frozen=True)
class Arena(Event):
    """An arena (see the module docstring). ``matches``: the pairings being played;
    ``pool``: ``(player, waiting since)``; ``paused``: players out of the pool;
    ``clock``: the latest time seen; ``closed``: the end has passed."""

    FORMAT = "arena"
    OPTIONS = ArenaOptions
    MIN_ENTRANTS = 0

    matches: tuple = ()
    pool: tuple = ()
    paused: tuple = ()
    clock: float = 0
    closed: bool = False

    @classmethod
    def new(cls, entrants, options: ArenaOptions | None = None, *, rng=None) -> "Arena":
        """An arena with every entrant in the pool from the start (``options`` say when)."""
        if options is None:
            raise TournamentError("bad_option", gettext_noop("An arena needs its start and end."))
        event = super().new(entrants, options, rng=rng)
        return replace(event, pool=tuple((p, options.start) for p in event.players), clock=options.start)

    # -- queries ------------------------------------------------------------------------
    @property
    def waiting(self) -> tuple:
        return tuple(p for p, _ in self.pool)

    def pending(self) -> tuple:
        return self.matches

    @property
    def is_over(self) -> bool:
        return self.closed and not self.matches

    @cached_property
    def points(self) -> dict:
        """``{player: (points, points of each match in order)}``."""
        per = {p: [] for p in self.players}
        streak = {p: 0 for p in self.players}
        o = self.options
        for record in self.records:
            for p in record.pairing.players:
                if p == record.result.winner:
                    per[p].append(o.win_points * (2 if streak[p] >= o.streak else 1))
                    streak[p] += 1
                else:
                    per[p].append(0)
                    streak[p] = 0
        return {p: (sum(v), tuple(v)) for p, v in per.items()}

    def sheet(self, player) -> tuple:
        """The points ``player`` scored in each of their matches, in order."""
        return self.points[self.check_entrant(player)][1]

    def standings(self) -> tuple:
        counts = tally(self.players, self.records)
        gone = set(self.withdrawn)
        lines = [_line(p, self.points[p][0], counts[p], WITHDRAWN if p in gone else ACTIVE) for p in self.players]
        return tuple(ranked(lines, key=lambda s: (-s.score, -s.wins)))

    @property
    def winner(self):
        return self.standings()[0].player if self.is_over and self.records else None

    def last_opponent(self) -> dict:
        last = {}
        for record in self.records:
            a, b = record.pairing.a, record.pairing.b
            last[a], last[b] = b, a
        return last

    # -- actions ------------------------------------------------------------------------
    def tick(self, now: float) -> "Arena":
        """The arena at time ``now``: closed once the end has passed."""
        if type(now) not in (int, float):
            raise TournamentError("bad_time", gettext_noop("A time is a number of seconds."))
        clock = max(self.clock, now)
        if clock >= self.options.end and not self.closed:
            return replace(self, clock=clock, closed=True, pool=())
        return replace(self, clock=clock) if clock != self.clock else self

    def pair(self, now: float) -> "Arena":
        """Pair the pool (see the module docstring); the new matches are in :meth:`pending`."""
        arena = self.tick(now)
        if arena.closed or now < arena.options.start or len(arena.pool) < 2:
            return arena
        score = {p: v[0] for p, v in arena.points.items()}
        rating = {e.id: e.rating for e in arena.entrants}
        since = dict(arena.pool)
        order = sorted(since, key=lambda p: (-score[p], rating[p] is None, -(rating[p] or 0), arena.seeds[p]))
        met: dict = {}
        for a, b in arena.last_opponent().items():
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
        place = {p: i for i, p in enumerate(order)}
        latest = sorted(order, key=lambda p: (-since[p], -place[p]))
        draw = pair_field(order, met, style=ADJACENT, sitout=latest)
        count = len(arena.records) + len(arena.matches)
        made, paired = [], set()
        for a, b in draw.pairs:
            if b in met.get(a, ()) and now - max(since[a], since[b]) < arena.options.rematch_wait:
                continue
            count += 1
            made.append(Pairing(f"A-{count}", a, b, 1, arena.options.lengths.length(1), STAGE, f"Arena match {count}"))
            paired |= {a, b}
        return replace(arena, matches=arena.matches + tuple(made),
                       pool=tuple(item for item in arena.pool if item[0] not in paired))

    def record(self, key: str, result: Result, now: float | None = None) -> "Arena":
        """Record a result at time ``now``; both players go back to the pool (those who
        did not come are paused instead)."""
        arena = self if now is None else self.tick(now)
        if not isinstance(result, Result):
            raise TournamentError("bad_result", gettext_noop("A result is a Result."))
        return arena.finish(Record(arena.pairing(key), result)).settled()

    def finish(self, record: Record) -> "Arena":
        absent = set()
        if record.result.kind in (FORFEIT, DOUBLE_FORFEIT):
            absent = set(record.losers)
        gone = set(self.withdrawn)
        back = () if self.closed else tuple((p, self.clock) for p in record.pairing.players
                                            if p not in absent and p not in gone)
        return replace(self, records=self.records + (record,),
                       matches=tuple(m for m in self.matches if m.key != record.key),
                       pool=self.pool + back, paused=self.paused + tuple(p for p in absent if p not in gone))

    def settled(self) -> "Arena":
        arena, gone = self, set(self.withdrawn)
        for pairing in self.walkovers():
            present = [p for p in pairing.players if p not in gone]
            arena = arena.finish(Record(pairing, Result.forfeit(present[0]) if present else Result.double_forfeit()))
        return replace(arena, pool=tuple(i for i in arena.pool if i[0] not in gone),
                       paused=tuple(p for p in arena.paused if p not in gone))

    def join(self, entrant, now: float) -> "Arena":
        """A late entry: in the pool from ``now``, seeded last."""
        arena = self.tick(now)
        entrant = as_entrant(entrant)
        if entrant.id in arena.seeds:
            raise TournamentError("duplicate_entrant", gettext_noop("A player can enter an event only once."))
        if arena.closed:
            raise TournamentError("event_over", gettext_noop("The arena has ended."))
        late = Entrant(entrant.id, entrant.rating, len(arena.entrants) + 1)
        return replace(arena, entrants=arena.entrants + (late,), pool=arena.pool + ((late.id, arena.clock),))

    def pause(self, player) -> "Arena":
        """``player``, waiting in the pool, leaves it until :meth:`resume`."""
        self.check_entrant(player)
        if player not in self.waiting:
            raise TournamentError("not_waiting", gettext_noop("%(player)s is not waiting to be paired."),
                    params={"player": repr(player)})
        return replace(self, pool=tuple(i for i in self.pool if i[0] != player), paused=self.paused + (player,))

    def resume(self, player, now: float) -> "Arena":
        """``player`` comes back to the pool at ``now``."""
        arena = self.tick(now)
        arena.check_entrant(player)
        if player not in arena.paused:
            raise TournamentError("not_paused", gettext_noop("%(player)s is not paused."),
                    params={"player": repr(player)})
        pool = arena.pool if arena.closed else arena.pool + ((player, arena.clock),)
        return replace(arena, pool=pool, paused=tuple(p for p in arena.paused if p != player))

    # -- storage ------------------------------------------------------------------------
    def extra_to_dict(self) -> dict:
        return {"matches": [m.to_dict() for m in self.matches], "pool": [list(i) for i in self.pool],
                "paused": list(self.paused), "clock": self.clock, "closed": self.closed}

    @classmethod
    def from_dict(cls, data: dict) -> "Arena":
        return cls(**cls.base_from_dict(data), matches=tuple(Pairing.from_dict(m) for m in data["matches"]),
                   pool=tuple((p, t) for p, t in data["pool"]), paused=tuple(data["paused"]),
                   clock=data["clock"], closed=data["closed"])


def _line(player, points: int, t, status: str) -> Standing:
    return Standing(None, player, points, t.wins, t.losses, t.byes, points_diff=t.points, status=status)


__all__ = ["Arena"]
