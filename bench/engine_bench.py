"""Benchmark: legal-play generation.

Times ``legal_plays`` over every position of the shared GNU Backgammon data
file, then over the positions met in self-play games, and prints the mean and
median microseconds per position. Each position is timed ``--repeat`` times and
its best time is kept (the usual way to filter out scheduler noise).

Targets on the project's 2-core machine: mean under 60 us and median under 30 us
per position on the shared file.

    python bench/engine_bench.py [--repeat 5] [--games 200] [--data PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.bots.selfplay import move_states  # noqa: E402
from games.engine import Position, legal_plays  # noqa: E402


def default_data() -> Path:
    shared = os.environ.get("SHARED_DIR") or ROOT.parent / "shared"
    return Path(shared) / "data" / "gnubg_positions.jsonl"


def time_positions(cases, repeat: int) -> list:
    """Best-of-``repeat`` seconds per (position, dice) case."""
    timer = time.perf_counter
    best = []
    for pos, dice in cases:
        fastest = float("inf")
        for _ in range(repeat):
            t0 = timer()
            legal_plays(pos, dice)
            elapsed = timer() - t0
            if elapsed < fastest:
                fastest = elapsed
        best.append(fastest)
    return best


def selfplay_cases(games: int, seed: int) -> list:
    """The (position, dice) of every turn of ``games`` random self-play games."""
    return [(s.position, s.dice) for s in move_states(0, seed, cube=False, games=games)]


def report(name: str, seconds: list) -> None:
    us = [s * 1e6 for s in seconds]
    print(
        f"{name:<28} positions={len(us):>6}  mean={statistics.mean(us):7.1f} us  "
        f"median={statistics.median(us):6.1f} us  p99={sorted(us)[int(len(us) * 0.99) - 1]:7.1f} us"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--data", type=Path, default=default_data())
    args = parser.parse_args(argv)

    if not args.data.is_file():
        print(f"reference data not found at {args.data} (set SHARED_DIR or --data)", file=sys.stderr)
        return 2
    with args.data.open(encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh if line.strip()]
    cases = [(Position.from_dict(line), tuple(line["dice"])) for line in lines]
    time_positions(cases[:50], 1)  # warm up
    report("shared data file", time_positions(cases, args.repeat))

    t0 = time.perf_counter()
    games = selfplay_cases(args.games, args.seed)
    build = time.perf_counter() - t0
    report(f"self-play ({args.games} games)", time_positions(games, args.repeat))
    print(f"self-play games played in {build:.2f} s ({len(games) / args.games:.1f} turns per game)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
