"""How many exported games GNU Backgammon 1.07 misreads: export random matches, import them.

Random seeded matches (checker plays, doubles, takes, drops, resignations offered and
accepted or rejected; matches to 1, 3, 5, 7 points and money sessions with and without
Jacoby) are played through the engine, written by ``games.interchange.mat_write``, and read
by one gnubg process. A game is misread when gnubg's winner or points differ, or when the
Position ID / Match ID gnubg shows at its end differ from ``state_ids``; a match ends on a
wrong score when gnubg's final score differs.

    python bench/mat_gnubg_bench.py [--matches 120] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import MatchRules  # noqa: E402
from games.interchange.ids import events_position_ids  # noqa: E402
from games.interchange.gnubg_run import gnubg_read  # noqa: E402
from games.interchange.mat_write import write_mat  # noqa: E402
from tests.interchange.helpers import play_random_match  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    gnubg = os.environ.get("GNUBG_PATH") or shutil.which("gnubg") or "/usr/games/gnubg"
    lengths = [1, 3, 5, 7, 0, 0]
    played = []
    for i in range(args.matches):
        length = lengths[i % len(lengths)]
        rules = MatchRules(length=length) if length else MatchRules(length=0, jacoby=bool(i % 2))
        match, games = play_random_match(args.seed + i, rules, max_games=12)
        played.append((rules, match, games))
    files = [(write_mat(length=r.length, black_name="b", white_name="w", games=g), r.jacoby) for r, _m, g in played]
    started = time.perf_counter()
    read = gnubg_read(gnubg, files, timeout=3600)
    games = misread = wrong_score = 0
    reasons = {}
    for (rules, match, ours), theirs in zip(played, read):
        if theirs["score"] != match.score or len(theirs["games"]) != len(ours):
            wrong_score += 1
        for events, g in zip(ours, theirs["games"]):
            games += 1
            end = events[-1]["payload"]
            reasons[end["reason"]] = reasons.get(end["reason"], 0) + 1
            ids = events_position_ids(events, length=rules.length)[-1]
            if (g["winner"], g["points"]) != (end["winner"], end["points"]) or \
                    (g["positionId"], g["matchId"]) != (ids["positionId"], ids["matchId"]):
                misread += 1
        games += max(0, len(ours) - len(theirs["games"]))
        misread += max(0, len(ours) - len(theirs["games"]))
    print(f"{len(played)} matches, {games} games ({', '.join(f'{k} {v}' for k, v in sorted(reasons.items()))}); "
          f"gnubg read them in {time.perf_counter() - started:.0f} s")
    print(f"misread games: {misread} of {games}; matches ending on a wrong score: {wrong_score} of {len(played)}")


if __name__ == "__main__":
    main()
