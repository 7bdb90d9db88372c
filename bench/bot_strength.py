"""Benchmark: each bot level against pubeval, cubeless money play.

Each dice sequence is played twice with the colours swapped (mirrored dice),
so luck cancels to a large degree. Prints points per game (from the level's
side) with its standard error, computed over the mirrored pairs.

    python bench/bot_strength.py [--games 1000] [--levels casual,expert]
                                 [--cap world_class=40,expert=300] [--workers 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import GameRules, GameState, legal_plays  # noqa: E402
from games.engine.game import MOVE, OPENING, OVER, TURN  # noqa: E402
from games.engine.position import WHITE, other  # noqa: E402


def pubeval_play(position, dice):
    from games.bots import pubeval

    plays = legal_plays(position, dice)
    return plays[pubeval.best_play_index(position, plays)]


def play_game(level: str, level_color: str, seed: int) -> tuple:
    """One cubeless money game; returns (points for the level, decisions timed by level, seconds)."""
    from games.bots import get_bot

    bot = get_bot(level)
    rng = random.Random(seed)
    state = GameState.new(GameRules(cube=False))
    while state.phase == OPENING:
        state = state.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
    spent, decisions = 0.0, 0
    while state.phase != OVER:
        color = state.actor
        if state.phase == TURN:
            state = state.roll(color, (rng.randint(1, 6), rng.randint(1, 6)))
            continue
        assert state.phase == MOVE
        if color == level_color:
            t0 = time.perf_counter()
            play = bot.choose_play(state)
            spent += time.perf_counter() - t0
            decisions += 1
        else:
            play = pubeval_play(state.position, state.dice)
        state = state.move(color, list(play.steps))  # the engine re-checks legality
    result = state.result
    points = result.points if result.winner == level_color else -result.points
    return points, decisions, spent


def play_pair(args) -> tuple:
    level, seed = args
    a = play_game(level, WHITE, seed)
    b = play_game(level, other(WHITE), seed)
    return (a[0], b[0], a[1] + b[1], a[2] + b[2])


def run_level(pool, level: str, games: int, seed: int) -> dict:
    pairs = max(1, games // 2)
    tasks = [(level, seed * 1_000_003 + i) for i in range(pairs)]
    t0 = time.perf_counter()
    results = pool.map(play_pair, tasks, chunksize=max(1, pairs // 40))
    wall = time.perf_counter() - t0
    pair_means = [(a + b) / 2 for a, b, _n, _s in results]
    mean = statistics.fmean(pair_means)
    se = statistics.stdev(pair_means) / math.sqrt(len(pair_means)) if len(pair_means) > 1 else float("nan")
    decisions = sum(r[2] for r in results)
    spent = sum(r[3] for r in results)
    wins = sum((a > 0) + (b > 0) for a, b, _n, _s in results)
    return {
        "level": level, "games": 2 * pairs, "ppg": mean, "se": se, "win_rate": wins / (2 * pairs),
        "wall": wall, "ms_per_decision": 1000 * spent / max(decisions, 1),
    }


def main(argv=None) -> None:
    from games.bots import LEVELS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per level (default 1000)")
    parser.add_argument("--levels", default=",".join(lv.name for lv in LEVELS))
    parser.add_argument("--cap", default="", help="per-level game caps, e.g. world_class=40,expert=300")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    caps = dict(item.split("=") for item in args.cap.split(",") if item)
    os.environ.setdefault("BOTS_SAGE_THREADS", "1")  # one bgsage thread per worker process
    from games.analysis import sage

    print(f"bgsage available: {sage.available()}; workers: {args.workers}; cubeless money; mirrored dice")
    print(f"{'level':<13} {'games':>6} {'ppg':>8} {'± SE':>7} {'win%':>6} {'ms/dec':>8} {'wall s':>7}")
    with Pool(args.workers) as pool:
        for level in args.levels.split(","):
            games = min(args.games, int(caps.get(level, args.games)))
            r = run_level(pool, level, games, args.seed)
            print(
                f"{r['level']:<13} {r['games']:>6} {r['ppg']:>+8.3f} {r['se']:>7.3f} "
                f"{100 * r['win_rate']:>5.1f}% {r['ms_per_decision']:>8.1f} {r['wall']:>7.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
