"""The site's analysis against GNU Backgammon's own 2-ply analysis, over many bot matches.

The measure of issue 29: house bots of mixed levels play ``--matches`` matches of 3, 5 and 7
points with cube play (seeded dice, ``bench/make_analysis_fixture.py``); each match is
analysed by the site (``games.analysis.analyse_match`` at ``--ply``) and, exported as
``.mat``, by gnubg 1.07 (``analyse match`` at the same depth, run in its own process while
the site analyses). Prints, pairing the two programs' decisions in order:

* checker plays (unforced): how often both give the same mark (none, doubtful, bad, very
  bad) and the same verdict (error or not); the correlation of the equity lost;
* cube decisions: no-doubles (every roll where the player could double), doubles, takes and
  drops (drops together with takes: the answers), the same mark and the same verdict;
* each player's checker error rate by both programs (mEMG per unforced play).

gnubg's marks are its own (``skill`` of a checker play); for the cube they are derived from
its equities (no double, double/take; double/pass is +1), turned from match-winning chances
into EMG at the score, with the same thresholds, because gnubg's ``match()`` records leave
the mark of a take or drop out.

    python bench/gnubg_agreement_bench.py [--matches 20] [--ply 2] [--save matches.json] [--load matches.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from analysis_bench import pearson, uptime  # noqa: E402
from make_analysis_fixture import record_match  # noqa: E402

from games.analysis import analyse_match, skill_mark  # noqa: E402
from games.analysis import sage_eval  # noqa: E402
from games.interchange.gnubg_run import gnubg_read  # noqa: E402
from games.interchange.mat_write import write_mat  # noqa: E402

LENGTHS = (3, 5, 7)
PAIRS = (("casual", "intermediate"), ("intermediate", "advanced"), ("beginner", "advanced"),
         ("advanced", "expert"), ("casual", "advanced"))


def make_matches(n: int, seed: int) -> list:
    matches = []
    for k in range(n):
        length = LENGTHS[k % len(LENGTHS)]
        white, black = PAIRS[k % len(PAIRS)]
        games = record_match(seed=seed + k, length=length, white=white, black=black)
        matches.append({"length": length, "white": white, "black": black, "seed": seed + k, "games": games})
    return matches


def _gnubg_mark(skill):
    return {"very bad": "very_bad"}.get(skill, skill) or None


def _cube_losses(nd, dt):
    """The doubler's equities -> (loss of no double, of double, of take, of drop)."""
    best = max(nd, min(dt, 1.0))
    return best - nd, best - min(dt, 1.0), max(0.0, dt - 1.0), max(0.0, 1.0 - dt)


def _to_emg(game: dict, d: dict, doubler: str):
    """gnubg's ``match()`` gives a cube decision's equities as match-winning chances: a function
    mapping them to the doubler's normalised equity (EMG) at the decision's score and cube,
    through bgsage's match equity table (gnubg's default, Kazaross XG2)."""
    info = game["game"]
    length, (white, black) = info["matchLength"], info["score"]
    if not length:
        return lambda x: x
    mine, theirs = (white, black) if doubler == "white" else (black, white)
    args = (length - mine, length - theirs, d["cubeValue"], bool(info["crawfordGame"]))
    cpp = sage_eval.evaluator(0).cpp
    zero, one = cpp.eq2mwc(0.0, *args), cpp.eq2mwc(1.0, *args)
    return lambda mwc: (mwc - zero) / (one - zero)


def _case(kind, game, d, a, ours_row) -> dict:
    """A cube decision the two programs mark differently, as ``--show`` prints it."""
    info = game["game"]
    cube = d["cube"] or {}
    return {"kind": kind, "length": info["matchLength"], "score": info["score"], "player": d["player"],
            "crawford": bool(info["crawfordGame"]), "cube": d["cubeValue"], "owner": d.get("cubeOwner"),
            "site": (cube.get("nd"), cube.get("dt")), "gnubg": (a["nd-cubeful-eq"], a["dt-cubeful-eq"]),
            "loss": ours_row[:2], "marks": ours_row[2:], "gnubgId": d.get("gnubgId")}


def pair_match(ours: dict, theirs: dict, rows: dict, cases: list | None = None) -> int:
    """Add the paired decisions of one match to ``rows``; returns the games skipped (out of step).
    ``cases``: a list that receives each cube decision marked differently (:func:`_case`)."""
    skipped = 0
    for game, g_game in zip(ours["games"], theirs["games"]):
        records = g_game["records"] or []
        mine = [d for d in game["decisions"] if d["kind"] in ("move", "double", "take", "drop", "beaver")
                and not (d["kind"] == "move" and d["play"] is None)]
        theirs_ = [r for r in records if r["action"] in ("move", "double", "take", "drop")]
        if len(mine) != len(theirs_) or any(
                (d["kind"] == "move") != (r["action"] == "move")
                or d["kind"] == "move" and sorted(d["dice"]) != sorted(r["dice"]) for d, r in zip(mine, theirs_)):
            skipped += 1
            continue
        last_double = None
        for d, r in zip(mine, theirs_):
            a = dict(r.get("analysis") or {})
            has_cube = "nd-cubeful-eq" in a and "dt-cubeful-eq" in a
            if has_cube:
                emg = _to_emg(game, d, d["player"])
                a["nd-cubeful-eq"], a["dt-cubeful-eq"] = emg(a["nd-cubeful-eq"]), emg(a["dt-cubeful-eq"])
            if d["kind"] == "move":
                if d["cube"] is not None and has_cube:
                    loss = _cube_losses(a["nd-cubeful-eq"], a["dt-cubeful-eq"])[0]
                    rows["no_double"].append((d["cube"]["loss"], loss, d["cube"]["mark"], skill_mark(loss)))
                    if cases is not None and rows["no_double"][-1][2] != rows["no_double"][-1][3]:
                        cases.append(_case("no_double", game, d, a, rows["no_double"][-1]))
                play = d["play"]
                moves, imove = a.get("moves"), a.get("imove")
                if play["forced"] or not moves or imove is None or len(moves) < 2:
                    continue
                loss = max(0.0, moves[0]["score"] - moves[imove]["score"])
                rows["checker"].append((play["loss"], loss, play["mark"], _gnubg_mark(a.get("skill"))))
            elif d["kind"] == "double":
                last_double = a if has_cube else None
                if last_double:
                    loss = _cube_losses(a["nd-cubeful-eq"], a["dt-cubeful-eq"])[1]
                    rows["double"].append((d["loss"], loss, d["mark"], skill_mark(loss)))
                    if cases is not None and rows["double"][-1][2] != rows["double"][-1][3]:
                        cases.append(_case("double", game, d, a, rows["double"][-1]))
            elif last_double:  # an answer, judged on the double's equities
                kind = "drop" if d["kind"] == "drop" else "take"
                loss = _cube_losses(last_double["nd-cubeful-eq"], last_double["dt-cubeful-eq"])[
                    3 if kind == "drop" else 2]
                rows["take"].append((d["loss"], loss, d["mark"], skill_mark(loss)))
                if cases is not None and rows["take"][-1][2] != rows["take"][-1][3]:
                    cases.append(_case(kind, game, d, last_double, rows["take"][-1]))
    return skipped


def report(label: str, rows: list) -> None:
    if not rows:
        print(f"  {label}: none")
        return
    same_mark = sum(1 for _, _, a, b in rows if (a or None) == (b or None))
    same_verdict = sum(1 for _, _, a, b in rows if bool(a) == bool(b))
    both = sum(1 for _, _, a, b in rows if a and b)
    only_ours = sum(1 for _, _, a, b in rows if a and not b)
    only_gnubg = sum(1 for _, _, a, b in rows if b and not a)
    r = pearson([x for x, *_ in rows], [y for _, y, *_ in rows])
    print(f"  {label}: {len(rows)}; same mark {same_mark / len(rows):.1%}, same verdict (error or not) "
          f"{same_verdict / len(rows):.1%}; errors marked by both {both}, only by the site {only_ours}, "
          f"only by gnubg {only_gnubg}; equity-loss correlation {r:.3f}")


def summarise(ours: list, gnubg_results: list, ply: int, *, show: bool = False) -> None:
    """Print the agreement of the site's analyses ``ours`` with gnubg's (``show``: and every cube
    decision the two mark differently)."""
    cases = []
    rows = {"checker": [], "no_double": [], "double": [], "take": []}
    skipped = sum(pair_match(o, t, rows, cases) for o, t in zip(ours, gnubg_results))
    print(f"agreement with gnubg 1.07 at {ply}-ply ({skipped} games out of step, left out):")
    report("checker plays (unforced)", rows["checker"])
    report("no-doubles", rows["no_double"])
    report("doubles", rows["double"])
    report("takes and drops", rows["take"])
    ours_rate = [1000 * statistics.mean([x for x, *_ in rows["checker"]])] if rows["checker"] else [float("nan")]
    theirs_rate = [1000 * statistics.mean([y for _, y, *_ in rows["checker"]])] if rows["checker"] else [float("nan")]
    print(f"  mean equity lost per unforced play: site {ours_rate[0]:.1f} mEMG, gnubg {theirs_rate[0]:.1f} mEMG")
    diffs = []
    for o, t in zip(ours, gnubg_results):
        for color, side in (("white", "O"), ("black", "X")):
            err = sum(((g["stats"] or {}).get(side, {}).get("moves", {}).get("error-skill", 0.0)) for g in t["games"])
            n = sum(((g["stats"] or {}).get(side, {}).get("moves", {}).get("unforced-moves", 0)) for g in t["games"])
            mine = o["stats"][color]["checker"]["errorRate"]
            if n and mine is not None:
                diffs.append(abs(mine - 1000 * err / n))
    if diffs:
        print(f"  per-player checker error rate: mean |site - gnubg| {statistics.mean(diffs):.2f} mEMG per play "
              f"over {len(diffs)} players (target within 1.0)")
    if show:
        for c in cases:
            (snd, sdt), (gnd, gdt) = c["site"], c["gnubg"]
            print(f"  {c['kind']:9} {c['length']}-pt {c['score'][0]}-{c['score'][1]}{' C' if c['crawford'] else ''} "
                  f"{c['player']:5} cube {c['cube']} {c['owner'] or 'centre'}: site nd {snd:+.3f} dt {sdt:+.3f} "
                  f"loss {c['loss'][0]:.3f} {c['marks'][0]}; gnubg nd {gnd:+.3f} dt {gdt:+.3f} "
                  f"loss {c['loss'][1]:.3f} {c['marks'][1]}  {c['gnubgId']}")


def _run_gnubg(gnubg, matches, ply, out):
    setup = [f"set analysis chequerplay evaluation plies {ply}", f"set analysis cubedecision evaluation plies {ply}"]
    files = [(write_mat(length=m["length"], black_name=m["black"], white_name=m["white"], games=m["games"]), False)
             for m in matches]
    started = time.perf_counter()
    out["results"] = gnubg_read(gnubg, files, analyse=True, setup=setup, timeout=24 * 3600)
    out["seconds"] = time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2900)
    parser.add_argument("--ply", type=int, default=2)
    parser.add_argument("--save", help="write the recorded matches to this JSON file")
    parser.add_argument("--load", help="read the matches from a file written by --save")
    parser.add_argument("--show", action="store_true", help="print every cube decision marked differently")
    parser.add_argument("--from-dump", help="only compare: read both analyses from a file written by --dump")
    parser.add_argument("--ours-from", help="with --from-dump: the site's analyses from this file instead "
                        "(written by --site-only --dump: the site after a change, against the same gnubg run)")
    parser.add_argument("--site-only", action="store_true",
                        help="only the site's analysis (with --dump: written after each match)")
    parser.add_argument("--dump", help="write both analyses (the site's and gnubg's) to this JSON file")
    parser.add_argument("--gnubg-from", help="reuse gnubg's analyses from a file written by --dump "
                        "(same matches: --load the file --save wrote) instead of running gnubg")
    args = parser.parse_args()
    gnubg = os.environ.get("GNUBG_PATH") or shutil.which("gnubg") or "/usr/games/gnubg"
    if not os.access(gnubg, os.X_OK):
        raise SystemExit("gnubg not found (GNUBG_PATH)")
    if args.from_dump:
        data = json.loads(Path(args.from_dump).read_text())
        ours = json.loads(Path(args.ours_from).read_text())["ours"] if args.ours_from else data["ours"]
        print(f"{len(ours)} matches of the site's, {len(data['gnubg'])} of gnubg's (the first of each compared)")
        summarise(ours, data["gnubg"][:len(ours)], args.ply, show=args.show)
        return
    print(f"machine: {os.cpu_count()} cores; load before: {uptime()}")

    started = time.perf_counter()
    if args.load:
        matches = json.loads(Path(args.load).read_text())[:args.matches]
    else:
        matches = make_matches(args.matches, args.seed)
    if args.save:
        Path(args.save).write_text(json.dumps(matches, separators=(",", ":")))
    games = sum(len(m["games"]) for m in matches)
    counts = ", ".join(str(sum(1 for m in matches if m["length"] == n)) for n in LENGTHS)
    print(f"{len(matches)} matches ({counts} of 3, 5, 7 points), {games} games, "
          f"recorded in {time.perf_counter() - started:.0f} s")

    if args.site_only:
        sage_eval.evaluator(args.ply)
        started, ours = time.perf_counter(), []
        for m in matches:
            ours.append(analyse_match(m["games"], ply=args.ply))
            if args.dump:
                Path(args.dump).write_text(json.dumps({"ours": ours, "gnubg": None}, separators=(",", ":")))
        print(f"site analysis at {args.ply}-ply: {time.perf_counter() - started:.0f} s")
        return
    g_out = {}
    if args.gnubg_from:
        g_out = {"results": json.loads(Path(args.gnubg_from).read_text())["gnubg"][:len(matches)], "seconds": 0.0}
        worker = threading.Thread(target=lambda: None)
    else:
        worker = threading.Thread(target=_run_gnubg, args=(gnubg, matches, args.ply, g_out))
    worker.start()
    sage_eval.evaluator(args.ply)
    started = time.perf_counter()
    ours = [analyse_match(m["games"], ply=args.ply) for m in matches]
    site_seconds = time.perf_counter() - started
    worker.join()
    if args.dump:
        Path(args.dump).write_text(json.dumps({"ours": ours, "gnubg": g_out["results"]}, separators=(",", ":")))
    print(f"site analysis at {args.ply}-ply: {site_seconds:.0f} s; gnubg's: {g_out['seconds']:.0f} s (concurrently)")

    summarise(ours, g_out["results"], args.ply, show=args.show)
    print(f"load after: {uptime()}")


if __name__ == "__main__":
    main()
