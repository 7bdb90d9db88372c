"""The doubles of the agreement bench's matches: the site's cube numbers against gnubg's, position by position.

Takes the matches written by ``bench/gnubg_agreement_bench.py --save`` and, for every double
in them, asks for no double / double-take (the doubler's equities, EMG) from the site's
analysis (``SageEvaluator.cube`` at ``--ply``: bgsage's cube search at the match score) and
from GNU Backgammon 1.07 (``cfevaluate`` at the same depth on the decision's gnubg ID, which
carries the score, the cube and its owner). Marks the double and the answer that was given
(take or drop) with the same thresholds, and prints how often the marks agree, the mean
differences of the equities (by match length and cube value), and every decision marked
differently. It answers in a minute what the agreement bench answers for doubles, takes and
drops in an hour, and shows where the two disagree.

    python bench/match_doubles_bench.py --matches matches.json [--ply 2] [--limit 20]

``--variants 0/5/0.08 1/5/0.08 ...`` evaluates the same doubles with other settings of the
cube search (extra plies beyond ``--ply``, the move filter of its inner nodes) and prints,
for each, the agreement with gnubg and the CPU time per cube decision (one thread).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.analysis import sage_eval, skill_mark  # noqa: E402
from games.analysis.game import _GameAnalyser  # noqa: E402

_SCRIPT = r'''
import gnubg, json
jobs = json.load(open("jobs.json"))
ec = gnubg.evalcontext(1, jobs["ply"], 1, 1, 0.0)
out = []
for gid in jobs["ids"]:
    gnubg.command("set gnubgid " + gid)
    out.append(list(gnubg.cfevaluate(gnubg.board(), gnubg.cubeinfo(), ec)[:4]))
json.dump(out, open("out.json", "w"))
'''


class _CubesOnly(_GameAnalyser):
    """The analysis of a game with only its doubles evaluated (no luck, no checker play)."""

    def on_roll(self, index, version, before, after, color, dice, opening):
        self.flush()

    def on_move(self, *args, **kwargs):
        self.pending = None


def site_doubles(matches: list, ply: int, search=None, clock: list | None = None) -> list:
    """The doubles with the site's equities; ``search``: a :class:`sage_eval.CubeSearch` other
    than the site's; ``clock``: gets ``[CPU seconds, cube evaluations]`` of the cube searches."""
    ev = sage_eval.evaluator(ply) if search is None else sage_eval.SageEvaluator(ply, cube_search=search)
    if clock is not None:
        clock[:] = [0.0, 0]
        cube = ev.cube

        def timed(*args, **kwargs):
            started = time.process_time()
            try:
                return cube(*args, **kwargs)
            finally:
                clock[0] += time.process_time() - started
                clock[1] += 1

        ev.cube = timed
    rows = []
    for number, match in enumerate(matches):
        for game_number, events in enumerate(match["games"], start=1):
            analyser = _CubesOnly(events, ply, ev, 1)
            decisions = analyser.run(None)["decisions"]
            for k, d in enumerate(decisions):
                if d["kind"] != "double":
                    continue
                answer = decisions[k + 1]["kind"] if k + 1 < len(decisions) else None
                rows.append({"match": number, "game": game_number, "length": match["length"],
                             "score": analyser.score, "player": d["player"], "cube": d["cubeValue"],
                             "owner": d["cubeOwner"], "gnubgId": d["gnubgId"], "answer": answer,
                             "site": (d["cube"]["nd"], d["cube"]["dt"])})
    return rows


def gnubg_doubles(gnubg: str, ids: list, ply: int) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "jobs.json").write_text(json.dumps({"ids": ids, "ply": ply}))
        Path(tmp, "run.py").write_text(_SCRIPT)
        proc = subprocess.run([gnubg, "-t", "-q", "-r", "-p", "run.py"], capture_output=True, text=True,
                              timeout=3600, cwd=tmp, env={"HOME": tmp, "PATH": "/usr/bin:/bin:/usr/games"})
        out = Path(tmp, "out.json")
        if not out.exists():
            raise SystemExit((proc.stdout + proc.stderr)[-2000:])
        return [(nd, dt) for _optimal, nd, dt, _dp in json.loads(out.read_text())]


def marks(nd: float, dt: float, answer: str | None) -> tuple:
    """(mark of the double, mark of the answer given): the doubler's equities, a pass is +1."""
    best = max(nd, min(dt, 1.0))
    answer_loss = max(0.0, 1.0 - dt) if answer == "drop" else max(0.0, dt - 1.0)
    return skill_mark(best - min(dt, 1.0)), skill_mark(answer_loss)


def parse_variant(text: str):
    """``extra_ply/filter_max_moves/filter_threshold`` (``1/5/0.08``: one ply deeper, bgsage's filter)."""
    try:
        extra, moves, window = text.split("/")
        return sage_eval.CubeSearch(int(extra), int(moves), float(window))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected extra_ply/filter_max_moves/filter_threshold") from None


def compare(rows: list, theirs_all: list) -> tuple:
    """(same double mark, same answer mark) over ``rows`` (their ``site`` set) against gnubg's."""
    for row, theirs in zip(rows, theirs_all):
        row["gnubg"] = theirs
        row["marks"] = (marks(*row["site"], row["answer"]), marks(*theirs, row["answer"]))
    return (sum(1 for r in rows if r["marks"][0][0] == r["marks"][1][0]),
            sum(1 for r in rows if r["marks"][0][1] == r["marks"][1][1]))


def variants_table(matches: list, ply: int, variants: list, theirs_all: list) -> None:
    """One line per cube search: agreement with gnubg and CPU per cube decision."""
    print(f"{'cube search (extra ply/moves/window)':38} {'doubles':>14} {'takes/drops':>14} "
          f"{'|dND|':>7} {'|dDT|':>7} {'CPU/decision':>13}")
    for search in variants:
        clock: list = []
        rows = site_doubles(matches, ply, search, clock)
        same_double, same_answer = compare(rows, theirs_all)
        near = [r for r in rows if max(r["site"][1], r["gnubg"][1]) < 1.3]
        d_nd = statistics.mean(abs(r["site"][0] - r["gnubg"][0]) for r in near) if near else 0.0
        d_dt = statistics.mean(abs(r["site"][1] - r["gnubg"][1]) for r in near) if near else 0.0
        n = max(1, len(rows))
        label = (f"{max(ply, sage_eval.CUBE_MIN_PLY) + search.extra_ply}-ply, "
                 f"{search.filter_max_moves} within {search.filter_threshold}")
        print(f"{label:38} {same_double:3}/{n} {same_double / n:6.1%} {same_answer:3}/{n} {same_answer / n:6.1%} "
              f"{d_nd:7.4f} {d_dt:7.4f} {1000 * clock[0] / max(1, clock[1]):10.0f} ms", flush=True)
        for r in rows:
            if r["marks"][0] != r["marks"][1]:
                print(f"    match {r['match']} game {r['game']}: site ND {r['site'][0]:+.3f} DT {r['site'][1]:+.3f} "
                      f"{r['marks'][0]}; gnubg ND {r['gnubg'][0]:+.3f} DT {r['gnubg'][1]:+.3f} {r['marks'][1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", required=True, help="a file written by gnubg_agreement_bench.py --save")
    parser.add_argument("--ply", type=int, default=2)
    parser.add_argument("--limit", type=int, default=20, help="the first N matches")
    parser.add_argument("--variants", nargs="+", type=parse_variant, metavar="EXTRA/MOVES/WINDOW",
                        help="instead of the site's cube search, each of these (extra ply beyond --ply, the "
                        "search's move filter: at most MOVES within WINDOW): a table of agreement and CPU")
    parser.add_argument("--gnubg-cache", help="gnubg's equities: read from this JSON file if it exists, "
                        "else written to it (same --matches, --ply and --limit)")
    args = parser.parse_args()
    gnubg = os.environ.get("GNUBG_PATH") or shutil.which("gnubg") or "/usr/games/gnubg"
    matches = json.loads(Path(args.matches).read_text())[:args.limit]
    rows = site_doubles(matches, args.ply)
    cache = Path(args.gnubg_cache) if args.gnubg_cache else None
    if cache is not None and cache.exists():
        theirs_all = [tuple(t) for t in json.loads(cache.read_text())]
    else:
        theirs_all = gnubg_doubles(gnubg, [r["gnubgId"] for r in rows], args.ply)
        if cache is not None:
            cache.write_text(json.dumps(theirs_all))
    if args.variants:
        variants_table(matches, args.ply, args.variants, theirs_all)
        return
    same_double, same_answer = compare(rows, theirs_all)
    print(f"{len(rows)} doubles in {len(matches)} matches, site v gnubg 1.07 cfevaluate at {args.ply}-ply: "
          f"double same mark {same_double} ({same_double / max(1, len(rows)):.1%}), "
          f"take or drop same mark {same_answer} ({same_answer / max(1, len(rows)):.1%})")
    groups = {"all": rows}
    for r in rows:
        groups.setdefault(f"{r['length']} points", []).append(r)
        groups.setdefault(f"cube {r['cube']}", []).append(r)
    for name, members in groups.items():
        members = [r for r in members if max(r["site"][1], r["gnubg"][1]) < 1.3]  # not far past the pass
        if members:
            nd = [r["site"][0] - r["gnubg"][0] for r in members]
            dt = [r["site"][1] - r["gnubg"][1] for r in members]
            print(f"  {name:9}: {len(members):3} site - gnubg: ND {statistics.mean(nd):+.4f} "
                  f"(mean |.| {statistics.mean(map(abs, nd)):.4f}), DT {statistics.mean(dt):+.4f} "
                  f"(mean |.| {statistics.mean(map(abs, dt)):.4f})")
    for r in rows:
        if r["marks"][0] != r["marks"][1]:
            print(f"  match {r['match']} game {r['game']}: {r['length']} points at {r['score'][0]}-{r['score'][1]}, "
                  f"{r['player']} doubles, cube {r['cube']} {r['owner'] or 'centred'}, {r['answer']}: "
                  f"site ND {r['site'][0]:+.3f} DT {r['site'][1]:+.3f} {r['marks'][0]}; "
                  f"gnubg ND {r['gnubg'][0]:+.3f} DT {r['gnubg'][1]:+.3f} {r['marks'][1]}  {r['gnubgId']}")


if __name__ == "__main__":
    main()
