"""Run GNU Backgammon 1.07 on ``.mat`` texts and read back what it understood.

For tests and benchmarks (never on a request path): one ``gnubg -t -q -r -p script``
process imports each file with its own ``set jacoby``, optionally runs gnubg's own
analysis, and dumps per game what gnubg read: the result (``winner`` as ``"black"`` /
``"white"``, ``points``, ``resigned``), the score at the game's start, the Position ID
and Match ID at the game's end, and with ``analyse`` gnubg's ``match()`` records
(per decision: the equities of the analysed moves, the cube analysis, the luck).

Players: gnubg's player 0 (``X``) is the left column, Black; player 1 (``O``) is White.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile

__all__ = ["gnubg_read", "GnubgError"]

_SCRIPT = r'''
import gnubg, json
jobs = json.load(open(%(jobs)r))
out = []
for job in jobs:
    gnubg.command("set jacoby " + ("on" if job["jacoby"] else "off"))
    for command in job.get("setup", []):
        gnubg.command(command)
    gnubg.command("import mat " + job["path"])
    if job["analyse"]:
        gnubg.command("analyse match")
    m = gnubg.match(analysis=1 if job["analyse"] else 0, boards=0, statistics=1 if job["analyse"] else 0,
                    verbose=0)
    games = []
    gnubg.navigate()
    for k, g in enumerate(m["games"]):
        if k:
            gnubg.navigate(game=1)
        gnubg.command("next 100000")
        info = g["info"]
        games.append({"info": info, "positionId": gnubg.positionid(), "matchId": gnubg.matchid(),
                      "records": g["game"] if job["analyse"] else None,
                      "stats": g.get("stats") if job["analyse"] else None})
    out.append({"games": games, "match": m.get("match-info", {})})
json.dump(out, open(%(out)r, "w"), default=str)
'''


class GnubgError(RuntimeError):
    """gnubg did not produce its output (the message holds the tail of what it printed)."""


def _player(side):
    return {"X": "black", "O": "white"}.get(side)


def gnubg_read(gnubg: str, files: list, *, analyse: bool = False, setup: list | None = None,
               timeout: float = 600) -> list:
    """``files``: ``[(mat_text, jacoby), ...]``. Returns one dict per file:
    ``{"games": [{"winner", "points", "resigned", "score", "positionId", "matchId",
    "records", "stats"}, ...], "score": (white, black) after the last game}``.
    ``setup``: extra gnubg commands run before each import (e.g. analysis settings)."""
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for i, (text, jacoby) in enumerate(files):
            path = os.path.join(tmp, f"m{i}.mat")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            jobs.append({"path": path, "jacoby": bool(jacoby), "analyse": analyse, "setup": setup or []})
        jobs_path, out_path, script = (os.path.join(tmp, n) for n in ("jobs.json", "out.json", "run.py"))
        with open(jobs_path, "w") as fh:
            json.dump(jobs, fh)
        with open(script, "w") as fh:
            fh.write(_SCRIPT % {"jobs": jobs_path, "out": out_path})
        proc = subprocess.run([gnubg, "-t", "-q", "-r", "-p", script], capture_output=True, text=True,
                              timeout=timeout, cwd=tmp, env={"HOME": tmp, "PATH": "/usr/bin:/bin:/usr/games"})
        if not os.path.exists(out_path):
            raise GnubgError((proc.stdout + proc.stderr)[-3000:])
        with open(out_path) as fh:
            raw = json.load(fh)
    results = []
    for match in raw:
        games = []
        for g in match["games"]:
            info = g["info"]
            games.append({
                "winner": _player(info.get("winner")),
                "points": info.get("points-won", 0),
                "resigned": bool(info.get("resigned")),
                "score": (info.get("score-O", 0), info.get("score-X", 0)),
                "positionId": g["positionId"],
                "matchId": g["matchId"],
                "records": g["records"],
                "stats": g["stats"],
            })
        white, black = games[-1]["score"] if games else (0, 0)
        if games and games[-1]["winner"] == "white":
            white += games[-1]["points"]
        elif games and games[-1]["winner"] == "black":
            black += games[-1]["points"]
        results.append({"games": games, "score": (white, black), "match": match["match"]})
    return results
