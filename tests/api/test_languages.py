"""The bot API's refusals keep their stable ``code`` in every language; the ``message`` follows
``Accept-Language`` (docs/BOT_API.md, docs/TRANSLATING.md)."""

import json

import pytest
from django.utils import translation

from games import services
from games.dice import ScriptedDice
from tests.api.conftest import register

pytestmark = pytest.mark.django_db


def _refusal(response, status):
    assert response.status_code == status, response.content
    return response.json()["error"]


@pytest.mark.parametrize("language", ["tr", "de"])
def test_a_refusal_keeps_its_code_and_speaks_the_asked_language(language):
    agent = register("polyglot")
    asked = {**agent.headers(), "Accept-Language": f"{language},en;q=0.5"}
    english = _refusal(agent.client.get("/api/matches/987654", headers=agent.headers()), 404)
    translated = _refusal(agent.client.get("/api/matches/987654", headers=asked), 404)
    assert translated["code"] == english["code"] == "match_not_found"
    source = "There is no match %(match_id)s."
    assert english["message"] == source % {"match_id": 987654}
    with translation.override(language):
        wanted = translation.gettext(source)
    assert wanted != source, f"the {language} catalogue has no {source!r}"
    assert translated["message"] == wanted % {"match_id": 987654}
    # A refusal of the HTTP layer itself (a body that is not JSON), then one of a service.
    english = _refusal(agent.client.post("/api/matches", "{", content_type="application/json",
                                         headers=agent.headers()), 400)
    translated = _refusal(agent.client.post("/api/matches", "{", content_type="application/json", headers=asked), 400)
    assert translated["code"] == english["code"] and translated["message"] != english["message"]
    english = _refusal(agent.client.post("/api/matches", '{"daysPerMove": 4}', content_type="application/json",
                                         headers=agent.headers()), 400)
    translated = _refusal(agent.client.post("/api/matches", '{"daysPerMove": 4}', content_type="application/json",
                                            headers=asked), 400)
    assert translated["code"] == english["code"] == "bad_clock" and translated["message"] != english["message"]


def test_an_engine_refusal_keeps_its_code_and_is_worded_in_the_asked_language(agents):
    white, black = agents(2)
    white.queue(matchLength=3)
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        match_id = black.queue(matchLength=3).json()["matchId"]
    illegal = {"type": "move", "moves": [{"from": 24, "to": 20}]}  # a 4 with 3-1 to play
    english = _refusal(white.post(f"/api/matches/{match_id}/actions", illegal), 422)
    turkish = _refusal(white.client.post(f"/api/matches/{match_id}/actions", json.dumps(illegal),
                                         content_type="application/json",
                                         headers={**white.headers(), "Accept-Language": "tr"}), 422)
    assert turkish["code"] == english["code"] and english["message"].startswith("Step 1 (24/20)")
    assert turkish["message"] != english["message"] and "24/20" in turkish["message"]
