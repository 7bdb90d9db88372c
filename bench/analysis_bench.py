"""Benchmark of the match analysis: speed, hint latency, agreement with GNU Backgammon.

Uses the 7-point match between two house bots recorded in
``tests/fixtures/analysis_match.json`` (``bench/make_analysis_fixture.py``) and prints:

1. the time to analyse the whole match with one worker (this process) at 1-ply and 2-ply
   (GNU Backgammon plies; the networks are loaded before timing), with ``uptime``;
2. hint latency at the default hint depth (``games.analysis.HINT_PLY``) over every
   decision of the match: checker plays, cube decisions, answers to doubles;
3. agreement with gnubg 1.07 analysing the same match (exported as .mat, analysed by
   gnubg at the same depth): for every unforced checker play, how often both programs
   mark it as an error (doubtful or worse) and the correlation of the equity lost; for
   doubles, takes and drops, how often both mark them; the correlation of each roll's
   luck; each player's error rate by both.

    python bench/analysis_bench.py [--plies 1 2] [--gnubg-ply 2] [--hints 0 to skip] [--no-gnubg]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.analysis import HINT_PLY, analyse_match, hint  # noqa: E402
from games.analysis import sage_eval  # noqa: E402
from games.analysis.context import cube_available, cube_context  # noqa: E402
from games.interchange.gnubg_run import gnubg_read  # noqa: E402
from games.interchange.mat_write import write_mat  # noqa: E402
from games.engine.replay import replay_steps  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "analysis_match.json"


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:  # pragma: no cover
        return "uptime unavailable"


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def pearson(xs, ys):
    n = len(xs)
    if n < 2:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    if not sx or not sy:
        return float("nan")
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sx * sy)


def time_analysis(games, ply):
    sage_eval.evaluator(ply)  # load the networks before the clock starts
    started = time.perf_counter()
    cpu = time.process_time()
    out = analyse_match(games, ply=ply)
    return out, time.perf_counter() - started, time.process_time() - cpu


def hint_latency(games, length, ply, limit):
    times = {"play": [], "cube": [], "answer": []}
    sage_eval.evaluator(ply)
    for events in games:
        score = tuple(events[0]["payload"]["score"])
        for event, state in replay_steps(events):
            kind = None
            if state.phase == "move" and len(state.legal_plays()) > 1:
                kind = "play"
            elif state.phase == "turn" and state.actor and cube_available(
                    state, state.actor, cube_context(state, state.actor, match_length=length, score=score)):
                kind = "cube"
            elif state.phase == "cube_offered":
                kind = "answer"
            if kind is None or sum(len(v) for v in times.values()) >= limit:
                continue
            started = time.perf_counter()
            hint(state, match_length=length, score=score, ply=ply)
            times[kind].append((time.perf_counter() - started) * 1000)
    return times


def _gnubg_loss(record):
    analysis = record.get("analysis") or {}
    moves, imove = analysis.get("moves"), analysis.get("imove")
    if not moves or imove is None or len(moves) < 2:
        return None
    return max(0.0, moves[0]["score"] - moves[imove]["score"])


def _is_error(mark):
    return mark in ("doubtful", "bad", "very_bad", "very bad")


def compare(ours, theirs):
    """Pair our decisions with gnubg's records game by game, in order."""
    checker, cube, luck = [], [], []
    for game, gnubg_game in zip(ours["games"], theirs["games"]):
        our_moves = [d for d in game["decisions"] if d["kind"] == "move" and d["play"] is not None]
        our_cube = [d for d in game["decisions"] if d["kind"] in ("double", "take", "drop")]
        records = gnubg_game["records"] or []
        g_moves = [r for r in records if r["action"] == "move"]
        g_cube = [r for r in records if r["action"] in ("double", "take", "drop")]
        for d, r in zip(our_moves, g_moves):
            if sorted(d["dice"]) != sorted(r["dice"]):
                raise SystemExit(f"game {game['game']['number']}: decisions out of step ({d['dice']} vs {r['dice']})")
            analysis = r.get("analysis") or {}
            if "luck-value" in analysis and d["luck"] is not None:
                luck.append((d["luck"]["value"], analysis["luck-value"]))
            if d["play"]["forced"]:
                continue
            loss = _gnubg_loss(r)
            if loss is None:
                continue
            gnubg_mark = analysis.get("skill")
            checker.append((d["play"]["loss"], loss, d["play"]["mark"], gnubg_mark if gnubg_mark else None))
        for d, r in zip(our_cube, g_cube):
            cube.append((d["kind"], d["mark"], (r.get("analysis") or {}).get("skill")))
    return checker, cube, luck


def agreement_report(checker, cube, luck, ours, theirs):
    both = sum(1 for _, _, a, b in checker if _is_error(a) and _is_error(b))
    only_ours = sum(1 for _, _, a, b in checker if _is_error(a) and not _is_error(b))
    only_gnubg = sum(1 for _, _, a, b in checker if not _is_error(a) and _is_error(b))
    neither = len(checker) - both - only_ours - only_gnubg
    print(f"  checker plays compared: {len(checker)} unforced")
    print(f"    marked an error by both {both}, only by us {only_ours}, only by gnubg {only_gnubg}, "
          f"by neither {neither}")
    either = both + only_ours + only_gnubg
    print(f"    both mark it, of those either marks: {both / either:.0%}" if either else "    no errors marked")
    print(f"    same verdict (error or not): {(both + neither) / len(checker):.0%}" if checker else "")
    print(f"    correlation of equity lost (Pearson r): {pearson([a for a, *_ in checker], [b for _, b, *_ in checker]):.3f}")
    mean_ours = statistics.mean(a for a, *_ in checker) if checker else 0
    mean_gnubg = statistics.mean(b for _, b, *_ in checker) if checker else 0
    print(f"    mean equity lost per unforced play: ours {mean_ours * 1000:.1f} mEMG, gnubg {mean_gnubg * 1000:.1f} mEMG")
    cube_both = sum(1 for _, a, b in cube if _is_error(a) and _is_error(b))
    cube_either = sum(1 for _, a, b in cube if _is_error(a) or _is_error(b))
    print(f"  doubles/takes/drops compared: {len(cube)}; marked by both {cube_both} of {cube_either} marked by either")
    for label, kinds in (("doubles", ("double",)), ("takes and drops", ("take", "drop"))):
        rows = [(a, b) for kind, a, b in cube if kind in kinds]
        same = sum(1 for a, b in rows if _is_error(a) == _is_error(b))
        print(f"    {label}: same verdict (error or not) on {same} of {len(rows)}")
    for kind, a, b in cube:
        print(f"    {kind:6s} ours {a or '-':9s} gnubg {b or '-'}")
    print(f"  luck of {len(luck)} rolls: correlation {pearson([a for a, _ in luck], [b for _, b in luck]):.3f}")
    print("  error rate per player (mEMG per decision, gnubg's definition; checker plays only for gnubg's side):")
    for color, side in (("white", "O"), ("black", "X")):
        stats = ours["stats"][color]
        g_err = sum(((g["stats"] or {}).get(side, {}).get("moves", {}).get("error-skill", 0.0)) for g in theirs["games"])
        g_n = sum(((g["stats"] or {}).get(side, {}).get("moves", {}).get("unforced-moves", 0)) for g in theirs["games"])
        g_rate = 1000 * g_err / g_n if g_n else float("nan")
        print(f"    {color}: checker {stats['checker']['errorRate']} (gnubg {g_rate:.1f}), overall "
              f"{stats['overall']['errorRate']}, PR {stats['overall']['pr']}, luck {stats['luck']['total']:+.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--hints", type=int, default=400, help="hint calls to time (0: skip)")
    parser.add_argument("--hint-ply", type=int, default=HINT_PLY)
    parser.add_argument("--gnubg-ply", type=int, default=2)
    parser.add_argument("--no-gnubg", action="store_true")
    args = parser.parse_args()

    data = json.loads(FIXTURE.read_text())
    games, length = data["games"], data["length"]
    decisions = sum(1 for g in games for e in g if e["type"] in ("move", "double", "take", "drop"))
    print(f"match: {length}-point, {len(games)} games, {decisions} moves and cube actions "
          f"({data['white']} v {data['black']}, seed {data['seed']})")
    print(f"machine: {os.cpu_count()} cores; ANALYSIS_SAGE_THREADS={sage_eval.threads()}")
    print(f"load before: {uptime()}")

    analyses = {}
    for ply in args.plies:
        out, wall, cpu = time_analysis(games, ply)
        analyses[ply] = out
        target = {1: 10, 2: 60}.get(ply)
        note = f" (target < {target} s)" if target else ""
        print(f"analysis at {ply}-ply: {wall:.1f} s wall, {cpu:.1f} s CPU{note}; per game "
              + ", ".join(f"{g['seconds']:.1f}" for g in out["games"]))
        for color in ("white", "black"):
            s = out["stats"][color]
            print(f"    {color}: error rate {s['overall']['errorRate']} mEMG/decision, PR {s['overall']['pr']}, "
                  f"checker {s['checker']['errorRate']}, cube {s['cube']['errorRate']}, luck {s['luck']['total']:+.3f}")

    if args.hints:
        times = hint_latency(games, length, args.hint_ply, args.hints)
        every = [t for v in times.values() for t in v]
        print(f"hints at {args.hint_ply}-ply: {len(every)} calls, median {statistics.median(every):.0f} ms, "
              f"p95 {pct(every, 0.95):.0f} ms, max {max(every):.0f} ms (target p95 < 300 ms)")
        for kind, values in times.items():
            if values:
                print(f"    {kind:6s} {len(values):4d} calls: median {statistics.median(values):.0f} ms, "
                      f"p95 {pct(values, 0.95):.0f} ms")

    if not args.no_gnubg:
        gnubg = os.environ.get("GNUBG_PATH") or shutil.which("gnubg") or "/usr/games/gnubg"
        if not os.access(gnubg, os.X_OK):
            print("gnubg not found: agreement skipped")
        else:
            ply = args.gnubg_ply
            ours = analyses.get(ply) or time_analysis(games, ply)[0]
            text = write_mat(length=length, black_name=data["black"], white_name=data["white"], games=games)
            setup = [f"set analysis chequerplay evaluation plies {ply}", f"set analysis cubedecision evaluation plies {ply}"]
            started = time.perf_counter()
            theirs = gnubg_read(gnubg, [(text, False)], analyse=True, setup=setup, timeout=3600)[0]
            print(f"agreement with gnubg 1.07 at {ply}-ply (gnubg took {time.perf_counter() - started:.0f} s):")
            agreement_report(*compare(ours, theirs), ours, theirs)
    print(f"load after: {uptime()}")


if __name__ == "__main__":
    main()
