"""Record the JSON fixtures of tests/js: a whole game played through the real services.

    .venv/bin/python tests/js/record_fixtures.py

Writes ``tests/js/fixtures/game1.json``: White's first snapshot (after the opening
roll), every wire event White's socket would get after it (``legalMoves`` only on
White's own move prompts), and White's final snapshot. The dice are fixed by a seed,
the policy prefers hits, so the game has hits and entries from the bar.
"""

import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
tmp = tempfile.mkdtemp()
os.environ["SQLITE_PATH"] = str(Path(tmp) / "fixtures.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon_site.settings")
os.environ.setdefault("GAMES_SWEEP_INTERVAL", "0")

import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402

call_command("migrate", verbosity=0)

from games.selectors import games as selectors
from games import services  # noqa: E402
from games.dice import SeededDice  # noqa: E402
from games.engine import MOVE, TURN  # noqa: E402
from games.events import add_listener  # noqa: E402
from games.models import Game  # noqa: E402

SEED = "00" * 31 + "2a"


def for_white(data):
    out = {"t": data["t"], "v": data["v"], "d": data["d"], "game": data["game"]}
    if data.get("legalMoves") is not None and data.get("legalFor") == "white":
        out["legalMoves"] = data["legalMoves"]
    return out


def main():
    received = []
    add_listener(lambda data: received.append(data) if "game" in data and "lobby" not in data else None)
    white = services.player_register(username="fixwhite", password="correct horse 1")
    black = services.player_register(username="fixblack", password="correct horse 2")
    with services.use_dice(SeededDice(SEED)):
        match = services.match_create(creator=white, length=1)
        services.match_join(player=black, match_id=match.pk)
        game = Game.objects.get(match=match)
        first = selectors.game_snapshot(game, "white")
        first_version = game.version
        hits = turns = 0
        for _ in range(500):
            game = Game.objects.get(pk=game.pk)
            if game.status == Game.FINISHED:
                break
            state = game.game_state()
            player = white if state.actor == "white" else black
            if state.phase == TURN:
                services.game_roll(game_id=game.pk, player=player, expected_version=game.version)
                continue
            assert state.phase == MOVE, state.phase
            plays = state.legal_plays()
            other_bar = lambda p: p.result.bar("black" if state.actor == "white" else "white")  # noqa: E731
            if turns < 16:  # hit while it lasts, then race home
                play = max(plays, key=lambda p: (other_bar(p), -p.result.pip_count(state.actor), repr(p)))
            else:
                play = min(plays, key=lambda p: (p.result.pip_count(state.actor), repr(p)))
            turns += 1
            hits += other_bar(play) > state.position.bar("black" if state.actor == "white" else "white")
            services.game_move(game_id=game.pk, player=player, expected_version=game.version,
                               moves=[s.to_dict() for s in play.steps])
        game = Game.objects.get(pk=game.pk)
        last = selectors.game_snapshot(game, "white")
    events = [for_white(e) for e in received if e.get("game") == game.pk and e["v"] > first_version]
    out = {"first": {"t": "snapshot", "v": first_version, "d": first}, "events": events,
           "last": {"t": "snapshot", "v": game.version, "d": last}, "hits": hits}
    path = ROOT / "tests" / "js" / "fixtures" / "game1.json"
    path.write_text(json.dumps(out, indent=None, separators=(",", ":")) + "\n")
    kinds = sorted({e["t"] for e in events})
    print(f"wrote {path.relative_to(ROOT)}: {len(events)} events {kinds}, hits {hits}")


if __name__ == "__main__":
    main()
