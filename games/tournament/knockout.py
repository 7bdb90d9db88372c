"""Knock-out (single elimination), with an optional consolation.

The draw is a bracket of the next power of two, seeds placed in the standard positions
(1 v 16, 8 v 9, 4 v 13, 5 v 12... in a 16), so the empty places fall against the top
seeds: with ``n`` entrants in a bracket of ``size``, seeds 1 to ``size - n`` have a bye
into round 2. The winner of each match goes on; the final is ``M-R{k}-1`` in a bracket
of ``2**k``.

Consolation (option ``consolation``):

- ``simple``: the losers of round 1 of the main play their own knock-out, the loser of
  main match 1 against the loser of main match 2, and so on (a bye in the main leaves
  an empty place, a bye in the consolation).
- ``progressive`` (as backgammon clubs run it): the losers of main round 1 play
  consolation round 1 as above; consolation round 2 pairs each of its winners with a
  loser of main round 2, taken in reverse order (the winner of consolation match 1
  meets the loser of the last main round-2 match), so that nobody meets at once the
  player who just beat them; from then on it is a knock-out. A player who had a bye in
  main round 1 and loses in round 2 gets into the consolation that way. It needs a
  bracket of 8 at least; a smaller one runs a simple consolation.

Consolation matches take ``lengths.consolation`` when set. Losers of the main from round
3 on (2 on, in a simple consolation) are out.

>>> from games.tournament import Entrant, Result
>>> ko = Knockout.new([Entrant(p, r) for p, r in (("ann", 1900), ("bob", 1800), ("cy", 1700),
...                    ("dee", 1600), ("eve", 1500))])

Seeds 1 to 3 have a bye; bob and cy may play their semi-final at once (its ``round``
says when a scheduled event would start it):

>>> [(p.key, p.round, p.a, p.b, p.label) for p in ko.pending()]
[('M-R1-2', 1, 'dee', 'eve', 'Quarter-final'), ('M-R2-2', 2, 'bob', 'cy', 'Semi-final')]
>>> ko = ko.record("M-R1-2", Result.played("eve", (7, 5))).record("M-R2-2", Result.forfeit("cy"))
>>> [(p.key, p.a, p.b) for p in ko.pending()]
[('M-R2-1', 'ann', 'eve')]
>>> ko = ko.record("M-R2-1", Result.played("ann", (7, 1)))
>>> ko = ko.record("M-R3-1", Result.played("cy", (9, 8)))
>>> ko.is_over, ko.winner
(True, 'cy')
>>> [(s.rank, s.player) for s in ko.standings()]
[(1, 'cy'), (2, 'ann'), (3, 'bob'), (3, 'eve'), (5, 'dee')]
>>> Knockout.from_dict(ko.to_dict()) == ko
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .bracket import Node, elimination_nodes, loser_of, round_label, seed, winner_of
from .elimination import BracketEvent
from .entrants import bracket_order
from .options import NONE, PROGRESSIVE, KnockoutOptions

CONSOLATION = "consolation"


def main_nodes(size: int) -> list:
    """The main bracket of ``size`` places, seeds in the standard positions."""
    return elimination_nodes([seed(s) for s in bracket_order(size)], prefix="M", stage="main")


def consolation_nodes(size: int, kind: str) -> list:
    """The consolation of a main bracket of ``size`` (see the module docstring)."""
    if kind == NONE or size < 4:
        return []
    firsts = [loser_of(f"M-R1-{j}") for j in range(1, size // 2 + 1)]
    common = {"prefix": "C", "stage": CONSOLATION, "name": "Consolation", "secondary": True, "final": False}
    if kind != PROGRESSIVE or size < 8:
        return elimination_nodes(firsts, **common)
    quarter = size // 4
    rounds = 2 + quarter.bit_length() - 1
    nodes = [Node(f"C-R1-{j}", CONSOLATION, 1, firsts[2 * j - 2], firsts[2 * j - 1], "Consolation round 1",
                  secondary=True) for j in range(1, quarter + 1)]
    label = round_label(rounds - 1, 2, "Consolation")
    nodes += [Node(f"C-R2-{j}", CONSOLATION, 2, winner_of(f"C-R1-{j}"), loser_of(f"M-R2-{quarter + 1 - j}"), label,
                   secondary=True) for j in range(1, quarter + 1)]
    return nodes + elimination_nodes([winner_of(f"C-R2-{j}") for j in range(1, quarter + 1)], first_round=3, **common)


@dataclass(frozen=True)
class Knockout(BracketEvent):
    """A knock-out event (see the module docstring)."""

    FORMAT = "knockout"
    OPTIONS = KnockoutOptions
    STAGES = frozenset({"main"})

    @property
    def final_key(self) -> str:
        return f"M-R{self.size.bit_length() - 1}-1"

    def build(self) -> list:
        return main_nodes(self.size) + consolation_nodes(self.size, self.options.consolation)

    @property
    def consolation_final(self) -> str | None:
        keys = [n.key for n in self.nodes if n.stage == CONSOLATION]
        return keys[-1] if keys else None

    @property
    def consolation_winner(self):
        key = self.consolation_final
        return None if key is None else self.champion_of(key)

    def consolation_standings(self) -> tuple:
        key = self.consolation_final
        return () if key is None else self.places({CONSOLATION}, key)


__all__ = ["Knockout", "main_nodes", "consolation_nodes", "CONSOLATION"]
