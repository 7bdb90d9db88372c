"""Counting results into tables: match wins and losses, byes, points difference, the
opponents met; the tie-breaks built on them; shared ranks.

>>> from games.tournament.records import Pairing, Record, Result
>>> games = [Record(Pairing("R1-1", "ann", "bob", 1, 7), Result.played("ann", (7, 2))),
...          Record(Pairing("R1-2", "cy", None, 1, 7), Result("bye", "cy")),
...          Record(Pairing("R2-1", "ann", "cy", 2, 7), Result.played("cy", (7, 6)))]
>>> lines = swiss_table(["ann", "bob", "cy"], games, seeds={"ann": 1, "bob": 2, "cy": 3})
>>> [(s.rank, s.player, s.score, s.buchholz, s.points_diff) for s in lines]
[(1, 'cy', 2, 1, 1), (2, 'ann', 1, 2, 4), (3, 'bob', 0, 1, -5)]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .records import BYE, DOUBLE_FORFEIT, Standing

ACTIVE, OUT, WITHDRAWN = "active", "out", "withdrawn"


@dataclass
class Tally:
    """One player's count so far (mutable: built once per table)."""

    wins: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0  # points difference
    opponents: list = field(default_factory=list)  # everyone paired against, once per pairing
    beat: list = field(default_factory=list)  # everyone beaten (head-to-head)


def tally(players, records) -> dict:
    """``{player: Tally}`` for ``players`` from ``records`` (a bye counts as a win; a
    double forfeit as a loss for both)."""
    counts = {p: Tally() for p in players}
    for record in records:
        pairing, result = record.pairing, record.result
        for p in pairing.players:
            counts.setdefault(p, Tally())
        if result.kind == BYE:
            counts[pairing.a].wins += 1
            counts[pairing.a].byes += 1
            continue
        counts[pairing.a].opponents.append(pairing.b)
        counts[pairing.b].opponents.append(pairing.a)
        if result.kind == DOUBLE_FORFEIT:
            counts[pairing.a].losses += 1
            counts[pairing.b].losses += 1
            continue
        winner, loser = result.winner, pairing.other(result.winner)
        counts[winner].wins += 1
        counts[winner].beat.append(loser)
        counts[loser].losses += 1
        for p in pairing.players:
            counts[p].points += result.points_for(p)
    return counts


def ranked(lines: list, key) -> list:
    """``lines`` (Standing with rank None) sorted by ``key`` then seed order (their given
    order), each ranked 1 + the number of lines whose ``key`` is strictly better."""
    lines = sorted(lines, key=key)  # stable: the given (seed) order breaks the last ties
    out = []
    for i, line in enumerate(lines):
        rank = out[-1].rank if i and key(lines[i - 1]) == key(line) else i + 1
        out.append(_with_rank(line, rank))
    return out


def _with_rank(line: Standing, rank: int) -> Standing:
    return Standing(rank, line.player, line.score, line.wins, line.losses, line.byes, line.buchholz,
                    line.head_to_head, line.points_diff, line.status)


def by_seed(players, seeds: dict) -> list:
    return sorted(players, key=lambda p: seeds.get(p, 10**9))


def swiss_table(players, records, *, seeds: dict, withdrawn=()) -> list:
    """The Swiss table: match wins, then Buchholz (the sum of the match wins of every
    opponent paired against; byes add nothing), then points difference."""
    counts = tally(players, records)
    lines = []
    for p in by_seed(players, seeds):
        t = counts[p]
        lines.append(Standing(None, p, t.wins, t.wins, t.losses, t.byes,
                              buchholz=sum(counts[o].wins for o in t.opponents), points_diff=t.points,
                              status=WITHDRAWN if p in withdrawn else ACTIVE))
    return ranked(lines, key=lambda s: (-s.score, -s.buchholz, -s.points_diff))


def round_robin_table(players, records, *, seeds: dict, withdrawn=()) -> list:
    """The round-robin table: match wins, then head-to-head (wins against the players
    level on match wins), then points difference."""
    counts = tally(players, records)
    level = {}
    for p in players:
        level.setdefault(counts[p].wins, set()).add(p)
    lines = []
    for p in by_seed(players, seeds):
        t = counts[p]
        h2h = sum(1 for o in t.beat if o in level[t.wins])
        lines.append(Standing(None, p, t.wins, t.wins, t.losses, t.byes, head_to_head=h2h, points_diff=t.points,
                              status=WITHDRAWN if p in withdrawn else ACTIVE))
    return ranked(lines, key=lambda s: (-s.score, -s.head_to_head, -s.points_diff))


__all__ = ["Tally", "tally", "ranked", "by_seed", "swiss_table", "round_robin_table", "ACTIVE", "OUT", "WITHDRAWN"]
