"""Benchmark: pairing a Swiss round of 512 entrants.

Plays rounds 1 to 9 of a 512-entrant Swiss with random results (a seeded
``random.Random``: the same event every run) and prints, for each round, the time
``Swiss.pair_next_round`` takes (CPU of this process and wall time, the fastest of
``--repeat`` pairings of the same state) and how many pairs meet again (0 expected).
Then the worst case of the pairing itself: a field whose score groups leave the last
``--stuck`` players with nobody but old opponents, so every one of them is paired by
the maximum matching (:mod:`games.tournament.pairing`).

Target on the project's 2-core machine: under 1 s a round (it is tens of ms).
Figures are noisy while other work runs on the machine: compare CPU times, and the
machine reference printed first.

    python bench/tournament_bench.py [--entrants 512] [--rounds 9] [--repeat 3] [--stuck 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.tournament import Entrant, Result, Swiss, SwissOptions  # noqa: E402
from games.tournament.pairing import pair_field  # noqa: E402
from games.tournament.standings import tally  # noqa: E402


def timed(work, repeat: int) -> tuple:
    """``(result, fastest CPU seconds, fastest wall seconds)`` of ``repeat`` runs of ``work``."""
    cpu = wall = float("inf")
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        result = work()
        cpu, wall = min(cpu, time.process_time() - c0), min(wall, time.perf_counter() - w0)
    return result, cpu, wall


def swiss_rounds(entrants: int, rounds: int, repeat: int, seed: int) -> float:
    rng = random.Random(seed)
    field = [Entrant(f"p{i}", round(rng.uniform(1200, 2100), 1)) for i in range(entrants)]
    event = Swiss.new(field, SwissOptions(rounds=rounds))
    slowest = 0.0
    for number in range(1, rounds + 1):
        before = tally(event.players, event.records)
        event, cpu, wall = timed(event.pair_next_round, repeat)
        games = [p for p in event.pending()]
        again = sum(1 for p in games if p.b in before[p.a].opponents)
        print(f"round {number}: {len(games)} pairs, pairing {cpu * 1000:6.1f} ms CPU, {wall * 1000:6.1f} ms wall,"
              f" repeats {again}")
        slowest = max(slowest, cpu)
        for p in games:
            event = event.record(p.key, Result.played(rng.choice(p.players), (7, rng.randint(0, 6))))
    return slowest


def stuck_field(entrants: int, stuck: int, repeat: int) -> None:
    players = list(range(entrants))
    met = {p: set() for p in players}
    for a, b in itertools.combinations(players[-stuck:], 2):
        met[a].add(b)
        met[b].add(a)
    groups = [0 if p < entrants - stuck else 1 for p in players]
    draw, cpu, wall = timed(lambda: pair_field(players, met, groups=groups), repeat)
    print(f"worst case: {entrants} players, the last {stuck} have all met: pairing {cpu * 1000:.1f} ms CPU,"
          f" {wall * 1000:.1f} ms wall, repeats {draw.repeats}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stuck", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-reference", action="store_true", help="skip the machine reference")
    args = parser.parse_args(argv)
    if not args.no_reference:
        from bench.reference import describe

        print(describe())
    slowest = swiss_rounds(args.entrants, args.rounds, args.repeat, args.seed)
    print(f"slowest round: {slowest * 1000:.1f} ms CPU (target: under 1000 ms)")
    stuck_field(args.entrants, args.stuck, args.repeat)


if __name__ == "__main__":
    main()
