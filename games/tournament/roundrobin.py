"""Round robin: everyone meets everyone (``cycles`` times), on the circle method.

The schedule: the players in seed order, one more empty place with an odd field; the
first stays put while the others turn one place a round, and each round pairs the
first place with the last, the second with the last but one... ``n - 1`` rounds for
``n`` places; the player facing the empty place rests that round (a rest is worth
nothing). With two cycles the schedule is played again.

Rounds need not wait for each other: a match is ready as soon as it is the earliest
unplayed match of both its players. A withdrawn player's results stand and every match
they had left is forfeited to the opponent.

The table: match wins, then head-to-head (wins against the players level on match
wins), then points difference, then seed.

>>> circle(["a", "b", "c"])
[[('a', None), ('b', 'c')], [('a', 'c'), ('b', None)], [('a', 'b'), ('c', None)]]
>>> from games.tournament import Result
>>> rr = RoundRobin.new(["ann", "bob", "cy", "dee"], RoundRobinOptions(seeding="given"))
>>> [(p.key, p.a, p.b) for p in rr.pending()]
[('R1-1', 'ann', 'dee'), ('R1-2', 'bob', 'cy')]
>>> rr = rr.record("R1-1", Result.played("dee"))
>>> [(p.key, p.a, p.b) for p in rr.pending()]
[('R1-2', 'bob', 'cy')]

cy withdraws: the match in play and the two left are forfeited; ann must wait for bob:

>>> rr = rr.withdraw("cy")
>>> [(p.key, p.a, p.b) for p in rr.pending()]
[('R2-2', 'bob', 'dee')]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .event import Event
from .options import RoundRobinOptions
from .records import Pairing
from .standings import round_robin_table

STAGE = "roundrobin"


def circle(players) -> list:
    """The rounds of a round robin of ``players`` (circle method): each a list of pairs,
    the better seed first, ``(player, None)`` for the one who rests."""
    places = list(players)
    rank = {p: i for i, p in enumerate(places)}
    if len(places) % 2:
        places.append(None)
    n = len(places)
    fixed, turning = places[0], places[1:]
    rounds = []
    for _ in range(n - 1):
        line = [fixed] + turning
        pairs = [(line[i], line[n - 1 - i]) for i in range(n // 2)]
        rounds.append([(b, a) if a is None or (b is not None and rank[b] < rank[a]) else (a, b) for a, b in pairs])
        turning = turning[-1:] + turning[:-1]
    return rounds


@dataclass(frozen=True)
class RoundRobin(Event):
    """A round robin (see the module docstring). ``prefix`` starts its keys and
    ``name`` its labels (a group of :mod:`games.tournament.groups`: "GA-", "Group A");
    ``offset``: the rounds of the event before it."""

    FORMAT = "roundrobin"
    OPTIONS = RoundRobinOptions

    prefix: str = ""
    name: str = ""
    offset: int = 0

    @cached_property
    def schedule(self) -> tuple:
        """Every match of the event (rests left out), round by round."""
        rounds = circle(self.players)
        out = []
        stage = "group" if self.name else STAGE
        for cycle in range(self.options.cycles):
            for i, pairs in enumerate(rounds):
                number = cycle * len(rounds) + i + 1
                step = number + self.offset
                label = f"{self.name}, round {number}" if self.name else f"Round {number}"
                length = self.options.lengths.length(step)
                table = [pair for pair in pairs if pair[1] is not None]
                out += [Pairing(f"{self.prefix}R{number}-{t}", a, b, step, length, stage, label)
                        for t, (a, b) in enumerate(table, 1)]
        return tuple(out)

    @property
    def rounds_total(self) -> int:
        return len(circle(self.players)) * self.options.cycles

    def pending(self) -> tuple:
        done = self.results
        earliest: dict = {}
        for p in self.schedule:
            if p.key in done:
                continue
            for player in p.players:
                earliest.setdefault(player, p.key)
        return tuple(p for p in self.schedule if p.key not in done and all(earliest[q] == p.key for q in p.players))

    def walkovers(self) -> tuple:
        gone, done = set(self.withdrawn), self.results
        return tuple(p for p in self.schedule if p.key not in done and gone & set(p.players))

    @property
    def is_over(self) -> bool:
        done = self.results
        return all(p.key in done for p in self.schedule)

    def standings(self) -> tuple:
        return tuple(round_robin_table(self.players, self.records, seeds=self.seeds, withdrawn=set(self.withdrawn)))

    @property
    def winner(self):
        return self.standings()[0].player if self.is_over else None

    def extra_to_dict(self) -> dict:
        return {"prefix": self.prefix, "name": self.name, "offset": self.offset}

    @classmethod
    def from_dict(cls, data: dict) -> "RoundRobin":
        return cls(**cls.base_from_dict(data), prefix=data["prefix"], name=data["name"], offset=data["offset"])


__all__ = ["RoundRobin", "circle"]
