"""Writes tests/js/fixtures/chouette.json: public chouette states (as ``games.selectors.chouettes``
builds them, without the database) for tests/js/chouette.test.mjs.

    .venv/bin/python -m tests.js.record_chouette_fixture
"""

import json
from pathlib import Path

from games.engine import chouette as ce

NAMES = {1: "ann", 2: "bob", 3: "cy", 4: "dee"}


def state(session, game, number=1):
    g = {"id": 10, "number": number, **game.to_dict(), "runningScores": [list(s) for s in game.running_scores()],
         "consult": [p for p in game.team if game.may_consult(p)],
         "allowed": {str(p): list(game.allowed_actions(p)) for p in game.players},
         "legal": [[s.to_dict() for s in play.steps] for play in game.legal_plays()]}
    return {"chouette": 1, "status": "playing", "version": 7, "creator": 1, "rules": session.rules.to_dict(),
            "decisionSeconds": 60, "deadline": "2030-01-01T00:01:00+00:00",
            "seats": [{"player": p, "name": n, "active": True, "bot": p == 4, "away": False} for p, n in NAMES.items()],
            "session": session.to_dict(), "game": g}


def main():
    session = ce.ChouetteSession.new(ce.ChouetteRules(), [1, 2, 3, 4])
    session, game = session.start_game()
    game = game.opening_roll(box_die=1, team_die=3)
    move = game.move(2, [{"from": 17, "to": 20}, {"from": 19, "to": 20}])
    answers = move.double(1)
    dropped = answers
    for member in (2, 3, 4):  # every member drops the box's double: the game is over, no winner on the board
        dropped = dropped.drop(member)
    out = {"move": state(session, game), "answers": state(session, answers), "dropped": dropped.result().to_dict()}
    path = Path(__file__).with_name("fixtures") / "chouette.json"
    path.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
