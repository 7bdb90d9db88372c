"""The bot API's refusals keep their stable ``code`` in every language; the ``message`` follows
``Accept-Language`` (docs/BOT_API.md, docs/TRANSLATING.md)."""

import pytest
from django.utils import translation

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
