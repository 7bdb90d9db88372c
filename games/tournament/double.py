"""Double elimination: nobody is out before their second loss.

The winners' bracket is a knock-out drawn like :mod:`games.tournament.knockout`'s
(``W-R{r}-{m}``). Its losers drop into the losers' bracket (``L-R{r}-{m}``): losers'
round 1 pairs the losers of winners' round 1 (match 1's against match 2's...); every
even losers' round 2i pairs the survivors with the losers of winners' round i + 1,
taken in reverse order when i + 1 is even, so that a player does not meet at once the
one who just beat them; every odd losers' round after the first halves the survivors.
A bracket of ``2**k`` has ``2(k - 1)`` losers' rounds; the last, the losers' final,
pairs the survivor with the loser of the winners' final.

The grand final (``GF-1``) pairs the winners' champion (never beaten) with the losers'
champion (beaten once). With ``reset`` (the default) a win by the losers' champion,
the winners' champion's first loss, calls a second grand final (``GF-2``) that decides
the event; without it the first grand final decides, and the winners' champion is the
one player who can be out after one loss. A double forfeit puts both players out (see
:mod:`games.tournament.bracket`): they drop nowhere.

Places: 1st the winner, 2nd the other grand finalist, 3rd the loser of the losers'
final, then by the losers' round in which each went out, later first, shared.

>>> from games.tournament import Result
>>> de = DoubleElimination.new(["ann", "bob", "cy", "dee"])
>>> [(p.key, p.a, p.b) for p in de.pending()]
[('W-R1-1', 'ann', 'dee'), ('W-R1-2', 'bob', 'cy')]
>>> de = de.record("W-R1-1", Result.played("ann")).record("W-R1-2", Result.played("cy"))
>>> [(p.key, p.label, p.a, p.b) for p in de.pending()]
[('W-R2-1', "Winners' final", 'ann', 'cy'), ('L-R1-1', "Losers' round 1", 'dee', 'bob')]
>>> de = de.record("W-R2-1", Result.played("ann")).record("L-R1-1", Result.played("bob"))
>>> de = de.record("L-R2-1", Result.played("bob"))
>>> de = de.record("GF-1", Result.played("bob"))
>>> [(p.key, p.label, p.a, p.b) for p in de.pending()]
[('GF-2', 'Grand final, reset', 'ann', 'bob')]
>>> de = de.record("GF-2", Result.played("ann"))
>>> de.winner, [(s.rank, s.player, s.wins, s.losses) for s in de.standings()]
('ann', [(1, 'ann', 3, 1), (2, 'bob', 3, 2), (3, 'cy', 1, 2), (4, 'dee', 0, 2)])
"""

from __future__ import annotations

from dataclasses import dataclass

from .bracket import NOBODY, Node, elimination_nodes, loser_of, seed, winner_of
from .elimination import BracketEvent
from .entrants import bracket_order
from .options import DoubleOptions

WINNERS, LOSERS, FINAL = "winners", "losers", "final"


def losers_nodes(size: int) -> list:
    """The losers' bracket of a winners' bracket of ``size`` (see the module docstring)."""
    k = size.bit_length() - 1
    if k < 2:
        return []
    last = 2 * (k - 1)

    def label(rnd: int) -> str:
        return "Losers' final" if rnd == last else f"Losers' round {rnd}"

    nodes, survivors = [], []
    for j in range(1, size // 4 + 1):
        nodes.append(Node(f"L-R1-{j}", LOSERS, 1, loser_of(f"W-R1-{2 * j - 1}"), loser_of(f"W-R1-{2 * j}"),
                          label(1), secondary=True))
        survivors.append(winner_of(f"L-R1-{j}"))
    for i in range(1, k):
        drops = [loser_of(f"W-R{i + 1}-{m}") for m in range(1, len(survivors) + 1)]
        if (i + 1) % 2 == 0:
            drops.reverse()
        rnd = 2 * i
        row = [Node(f"L-R{rnd}-{j}", LOSERS, rnd, s, d, label(rnd), secondary=True)
               for j, (s, d) in enumerate(zip(survivors, drops), 1)]
        nodes += row
        survivors = [winner_of(n.key) for n in row]
        if i < k - 1:
            rnd += 1
            row = [Node(f"L-R{rnd}-{j}", LOSERS, rnd, survivors[2 * j - 2], survivors[2 * j - 1], label(rnd),
                        secondary=True) for j in range(1, len(survivors) // 2 + 1)]
            nodes += row
            survivors = [winner_of(n.key) for n in row]
    return nodes


def double_nodes(size: int, reset: bool) -> list:
    """Winners' bracket, losers' bracket, grand final (and its reset)."""
    k = size.bit_length() - 1
    winners = elimination_nodes([seed(s) for s in bracket_order(size)], prefix="W", stage=WINNERS, name="Winners'",
                                final=False)
    losers = losers_nodes(size)
    champion = winner_of(losers[-1].key) if losers else loser_of(f"W-R{k}-1")
    nodes = winners + losers + [Node("GF-1", FINAL, 1, winner_of(f"W-R{k}-1"), champion, "Grand final", final=True)]
    if reset:
        nodes.append(Node("GF-2", FINAL, 2, NOBODY, NOBODY, "Grand final, reset", final=True, reset_of="GF-1"))
    return nodes


@dataclass(frozen=True)
class DoubleElimination(BracketEvent):
    """A double-elimination event (see the module docstring)."""

    FORMAT = "double"
    OPTIONS = DoubleOptions
    STAGES = frozenset({WINNERS, LOSERS, FINAL})

    @property
    def final_key(self) -> str:
        return "GF-2" if self.options.reset else "GF-1"

    def build(self) -> list:
        return double_nodes(self.size, self.options.reset)


__all__ = ["DoubleElimination", "double_nodes", "losers_nodes", "WINNERS", "LOSERS", "FINAL"]
