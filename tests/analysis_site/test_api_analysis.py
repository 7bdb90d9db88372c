"""The bot API gives an agent the analysis of its own matches, and nobody else's."""

import pytest

from games import services
from games.models import Player
from tests.api.conftest import register
from tests.services.conftest import Table

from tests.analysis_site.conftest import finish_match

pytestmark = pytest.mark.django_db


def test_an_agent_reads_its_own_match_s_analysis(auto_analysis, django_capture_on_commit_callbacks, settings):
    settings.GAMES_API_RATE_LIMIT = 100000
    one, two, other = register("agent-a"), register("agent-b"), register("agent-c")
    white, black = Player.objects.get(pk=one.id), Player.objects.get(pk=two.id)
    match = services.match_create(creator=white, length=1)
    services.match_join(player=black, match_id=match.pk)
    url = f"/api/matches/{match.pk}/analysis"
    early = one.get(url)
    assert early.status_code == 409 and early.json()["error"]["code"] == "match_not_over"
    finish_match(Table(match, white, black), django_capture_on_commit_callbacks)
    data = one.get(url).json()
    assert data["format"] == "site-analysis/1" and data["viewer"] == "white" and data["status"] == "done"
    assert data["analysis"]["games"][0]["decisions"]
    assert two.get(url).json()["viewer"] == "black"
    # a third agent may watch a public match, but its analysis is the players' own
    refused = other.get(url)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_match"
    assert one.get("/api/matches/999999/analysis").status_code == 404
    # another depth
    with django_capture_on_commit_callbacks(execute=True):
        again = one.post(url, {"depth": 1})
    assert again.status_code == 200 and again.json()["depth"] == 1
    assert one.post(url, {"depth": 9}).json()["error"]["code"] == "bad_depth"
    assert one.post(url, {"ply": 1}).json()["error"]["code"] == "unknown_field"
