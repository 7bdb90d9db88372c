"""Record a 7-point match between two house bots into a fixture file (run once).

The house bots of ``games.bots`` play every decision (checker play, doubles, takes,
drops) with seeded dice; the events are written the way the services write them
(``games.interchange.record``), so the analysis benchmark and tests read a real
match without a database. Output: ``tests/fixtures/analysis_match.json``::

    {"length": 7, "white": "casual", "black": "intermediate", "seed": 7,
     "games": [[{"type": ..., "payload": ...}, ...], ...]}

    python bench/make_analysis_fixture.py [--seed 7] [--white casual] [--black intermediate]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.bots.decide import decide  # noqa: E402
from games.engine import MatchRules, MatchState  # noqa: E402
from games.interchange.record import GameRecorder  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "analysis_match.json"


def record_match(*, seed: int, length: int, white: str, black: str, max_games: int = 40) -> list:
    rng = random.Random(seed)

    def dice():
        return rng.randint(1, 6), rng.randint(1, 6)

    levels = {"white": white, "black": black}
    match = MatchState.new(MatchRules(length=length))
    games = []
    while not match.is_over and len(games) < max_games:
        rec = GameRecorder.start(match, number=len(games) + 1)
        while rec.state.phase == "opening":
            rec.opening(rng.randint(1, 6), rng.randint(1, 6))
        while not rec.is_over:
            state = rec.state
            answer = decide(levels[state.actor], state.to_dict(), match.to_dict())
            action = answer["action"]
            if action == "move":
                rec.move(answer["moves"], dice)
            elif action == "roll":
                rec.roll(dice())
            elif action in ("double", "drop"):
                getattr(rec, action)()
            elif action in ("take", "beaver", "raccoon"):
                getattr(rec, action)(dice)
            else:  # pragma: no cover - bots answer one of the above in a match
                raise RuntimeError(f"unexpected bot action {answer}")
        match = rec.finish()
        games.append(rec.events)
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--length", type=int, default=7)
    parser.add_argument("--white", default="casual")
    parser.add_argument("--black", default="intermediate")
    parser.add_argument("--out", default=str(FIXTURE))
    args = parser.parse_args()
    games = record_match(seed=args.seed, length=args.length, white=args.white, black=args.black)
    out = {"length": args.length, "white": args.white, "black": args.black, "seed": args.seed, "games": games}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, separators=(",", ":")) + "\n")
    decisions = sum(1 for g in games for e in g if e["type"] in ("move", "double", "take", "drop"))
    print(f"{len(games)} games, {decisions} moves and cube actions -> {args.out}")


if __name__ == "__main__":
    main()
