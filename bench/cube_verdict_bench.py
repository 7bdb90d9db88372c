"""Cube verdicts at match scores against GNU Backgammon: the analysis's cubeful search
and the Janowski method it replaced, side by side.

Takes the positions before a roll from the 7-point benchmark match
(``tests/fixtures/analysis_match.json``) whose cubeless winning chances make a double
thinkable (``--min-win`` .. ``--max-win``), puts each at several match scores with the
cube centred, and asks for no double / double-take / double-pass: from gnubg 1.07
(``cfevaluate``, the analysis depth), from the analysis (``SageEvaluator.cube``: bgsage's
recursive cube search) and from Janowski's formula on the same-depth cubeless
probabilities (bgsage's batch cube evaluation, the method before). Prints, per method:
how often the double verdict (double or not) and the take verdict (take or pass) are
gnubg's, the mean absolute difference of the equities, and the worst cases.

    python bench/cube_verdict_bench.py [--ply 2] [--limit 60]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.analysis import sage_eval  # noqa: E402
from games.analysis.context import CubeContext  # noqa: E402
from games.engine.replay import replay_steps  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "analysis_match.json"
#: (match length, doubler's score, taker's score)
SCORES = [(3, 1, 0), (3, 0, 1), (5, 3, 2), (7, 5, 2), (7, 2, 5), (7, 0, 0)]

_GNUBG = r'''
import gnubg, json
jobs = json.load(open("jobs.json"))
out = []
for j in jobs:
    b = j["board"]
    me, opp = [0] * 25, [0] * 25
    for i in range(1, 25):
        if b[i] > 0:
            me[i - 1] = b[i]
        elif b[i] < 0:
            opp[24 - i] = -b[i]
    me[24], opp[24] = b[25], b[0]
    ci = gnubg.cubeinfo(1, -1, 1, j["length"], (j["taker"], j["doubler"]), 0, 0)
    ec = gnubg.evalcontext(1, j["plies"], 0, 1, 0.0)
    r = gnubg.cfevaluate((opp, me), ci, ec)
    out.append([r[1], r[2], r[3]])
json.dump(out, open("out.json", "w"))
'''


def positions(min_win: float, max_win: float, limit: int) -> list:
    data = json.loads(FIXTURE.read_text())
    ev = sage_eval.evaluator(0)
    seen, out = set(), []
    for events in data["games"]:
        for _event, state in replay_steps(events):
            if state.phase != "turn" or not state.actor:
                continue
            board = tuple(ev.board(state.position, state.actor))
            if board in seen:
                continue
            seen.add(board)
            win = ev.cube(list(board), CubeContext(1, "centered", 0, 0)).probs[0]
            if min_win <= win <= max_win:
                out.append(list(board))
    step = max(1, len(out) // limit) if limit else 1
    return out[::step][:limit] if limit else out


def gnubg_cube(gnubg: str, jobs: list) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "jobs.json").write_text(json.dumps(jobs))
        Path(tmp, "run.py").write_text(_GNUBG)
        proc = subprocess.run([gnubg, "-t", "-q", "-r", "-p", "run.py"], capture_output=True, text=True,
                              cwd=tmp, timeout=7200, env={"HOME": tmp, "PATH": "/usr/bin:/bin:/usr/games"})
        out = Path(tmp, "out.json")
        if not out.exists():
            raise SystemExit((proc.stdout + proc.stderr)[-2000:])
        return json.loads(out.read_text())


def janowski(ev, board, ctx, ply):
    """The method before: Janowski's formula on the ``ply``-deep cubeless probabilities."""
    cpp = ev.cpp
    owner = {"centered": cpp.CubeOwner.CENTERED, "player": cpp.CubeOwner.PLAYER,
             "opponent": cpp.CubeOwner.OPPONENT}[ctx.owner]
    pos = (board, ctx.cube_value, owner, ctx.away, ctx.opponent_away, ctx.crawford)
    strategy = ev.base if ply == 0 else ev.deep[ply]
    r = cpp.batch_evaluate_positions([pos], strategy, 1, jacoby=False, beaver=False)[0]
    if ply:
        strategy.clear_cache()
    return r["equity_nd"], r["equity_dt"], r["equity_dp"]


def verdicts(nd, dt, dp):
    return nd < min(dt, dp), dt <= dp  # (double?, take?)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ply", type=int, default=2)
    parser.add_argument("--limit", type=int, default=60, help="positions (0: all)")
    parser.add_argument("--min-win", type=float, default=0.55)
    parser.add_argument("--max-win", type=float, default=0.92)
    args = parser.parse_args()
    gnubg = os.environ.get("GNUBG_PATH") or shutil.which("gnubg") or "/usr/games/gnubg"
    boards = positions(args.min_win, args.max_win, args.limit)
    cases = [(b, s) for s in SCORES for b in boards]
    print(f"{len(boards)} positions x {len(SCORES)} scores = {len(cases)} cube decisions at {args.ply}-ply")
    started = time.perf_counter()
    theirs = gnubg_cube(gnubg, [{"board": b, "length": n, "doubler": d, "taker": t, "plies": args.ply}
                                for b, (n, d, t) in cases])
    print(f"gnubg: {time.perf_counter() - started:.0f} s")
    ev = sage_eval.evaluator(args.ply)
    results = {"search": [], "janowski": []}
    cpu = {"search": 0.0, "janowski": 0.0}
    for b, (n, d, t) in cases:
        ctx = CubeContext(1, "centered", n - d, n - t, False)
        clock = time.process_time()
        c = ev.cube(b, ctx)
        cpu["search"] += time.process_time() - clock
        results["search"].append((c.nd, c.dt, c.dp))
        clock = time.process_time()
        results["janowski"].append(janowski(ev, b, ctx, args.ply))
        cpu["janowski"] += time.process_time() - clock
    for name, rows in results.items():
        same_double = same_take = 0
        diff_nd = diff_dt = 0.0
        worst = []
        for (nd, dt, dp), g, (b, score) in zip(rows, theirs, cases):
            ours, gv = verdicts(nd, dt, dp), verdicts(*g)
            same_double += ours[0] == gv[0]
            same_take += ours[1] == gv[1]
            diff_nd += abs(nd - g[0])
            diff_dt += abs(dt - g[1])
            worst.append((abs(dt - g[1]), score, (round(nd, 3), round(dt, 3)), (round(g[0], 3), round(g[1], 3))))
        k = len(rows)
        print(f"{name}: double verdict as gnubg {same_double}/{k} ({same_double / k:.1%}), take verdict "
              f"{same_take}/{k} ({same_take / k:.1%}); mean |ND - gnubg| {diff_nd / k:.3f}, mean |DT - gnubg| "
              f"{diff_dt / k:.3f}; CPU {1000 * cpu[name] / k:.0f} ms a decision")
        for d, score, ours, g in sorted(worst, reverse=True)[:3]:
            print(f"    worst: {score[0]}-point match at {score[1]}-{score[2]} (doubler first): ours ND/DT {ours}, "
                  f"gnubg {g}")
        by_score = {}
        for (nd, dt, dp), g, (b, score) in zip(rows, theirs, cases):
            by_score.setdefault(score, []).append(verdicts(nd, dt, dp)[0] == verdicts(*g)[0])
        print("    double verdict by score: " + ", ".join(
            f"{n}pt {d}-{t}: {sum(v)}/{len(v)}" for (n, d, t), v in by_score.items()))


if __name__ == "__main__":
    main()
