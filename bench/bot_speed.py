"""Benchmark: time per bot decision at each level, and the CPU cost of a game.

Times ``choose_play`` (checker play) and ``should_double`` (cube) over positions
from seeded random self-play, prints median and p95 milliseconds per level, then
plays whole cubeful money games of pubeval against the top level and reports
the top level's CPU seconds per game (process time, all bgsage threads included).

    python bench/bot_speed.py [--positions 300] [--games 3] [--threads 0]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import GameRules, GameState, legal_plays  # noqa: E402
from games.engine.game import MOVE, OPENING, OVER, TURN  # noqa: E402
from games.engine.position import WHITE  # noqa: E402
from games.bots.selfplay import move_states  # noqa: E402


def sample_positions(count: int, seed: int) -> list:
    return move_states(count, seed, cube=True)


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def time_level(level: str, states: list) -> tuple:
    from dataclasses import replace

    from games.bots import get_bot
    from games.analysis import sage

    bot = get_bot(level)
    sage._equity_table.cache_clear()
    moves, cubes = [], []
    for state in states:
        t0 = time.perf_counter()
        bot.choose_play(state)
        moves.append(time.perf_counter() - t0)
    for state in states[: max(1, len(states) // 3)]:
        turn = replace(state, phase=TURN, dice=None)
        t0 = time.perf_counter()
        bot.should_double(turn, None, turn.position.turn)
        cubes.append(time.perf_counter() - t0)
    return moves, cubes


def game_cost(level: str, seed: int) -> tuple:
    """One cubeful money game, ``level`` as White against pubeval; CPU and wall seconds of ``level``."""
    from games.bots import get_bot, pubeval

    bot = get_bot(level)
    rng = random.Random(seed)
    state = GameState.new(GameRules(cube=True))
    cpu = wall = 0.0
    decisions = 0
    while state.phase == OPENING:
        state = state.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
    while state.phase != OVER:
        color = state.actor
        mine = color == WHITE
        c0, w0 = time.process_time(), time.perf_counter()
        if state.phase == TURN:
            if mine and bot.should_double(state, None, color):
                state = state.double(color)
            else:
                state = state.roll(color, (rng.randint(1, 6), rng.randint(1, 6)))
        elif state.phase == MOVE:
            if mine:
                play = bot.choose_play(state)
            else:
                plays = legal_plays(state.position, state.dice)
                play = plays[pubeval.best_play_index(state.position, plays)]
            state = state.move(color, list(play.steps))
        else:  # the bot (White) doubled: pubeval's side always takes
            state = state.take(color)
        if mine:
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            decisions += 1
    return cpu, wall, decisions


def main(argv=None) -> None:
    from games.bots import LEVELS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--slow-positions", type=int, default=100, help="positions for world_class")
    parser.add_argument("--games", type=int, default=3, help="games against the top level")
    parser.add_argument("--threads", type=int, default=0, help="bgsage threads (0 = all cores)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    os.environ["BOTS_SAGE_THREADS"] = str(args.threads)
    from games.analysis import sage

    states = sample_positions(args.positions, args.seed)
    print(f"bgsage available: {sage.available()}; bgsage threads: {args.threads or 'all'}; cores: {os.cpu_count()}")
    print(f"{'level':<13} {'n':>4} {'move med ms':>12} {'move p95 ms':>12} {'cube med ms':>12} {'cube p95 ms':>12}")
    for lv in LEVELS:
        subset = states if lv.name != "world_class" else states[: args.slow_positions]
        moves, cubes = time_level(lv.name, subset)
        print(
            f"{lv.name:<13} {len(subset):>4} {1000 * statistics.median(moves):>12.2f} {1000 * pct(moves, 0.95):>12.2f} "
            f"{1000 * statistics.median(cubes):>12.2f} {1000 * pct(cubes, 0.95):>12.2f}",
            flush=True,
        )
    top = LEVELS[-1].name
    for i in range(args.games):
        cpu, wall, n = game_cost(top, args.seed * 100 + i)
        print(f"game {i + 1} vs {top}: {n} bot decisions, {cpu:.1f} s CPU, {wall:.1f} s wall", flush=True)


if __name__ == "__main__":
    main()
