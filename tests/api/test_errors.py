"""Refusals: each with its status and code, and none of them changes the game."""

import hashlib
import json
import time

import pytest

from games import services
from games.api import ratelimit
from games.dice import ScriptedDice
from games.models import Agent, Game, Player

from tests.api.conftest import game_row, register

LEGAL_31 = [{"from": 8, "to": 5}, {"from": 6, "to": 5}]  # White's 3-1 from the start


@pytest.fixture
def table(agents):
    """A started 3-point match: the first agent is White and opens with 3-1 (White to move)."""
    white, black, outsider = agents(3)
    white.queue(matchLength=3)
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        match_id = black.queue(matchLength=3).json()["matchId"]
    view = white.view(match_id).json()
    assert view["yourColor"] == "white" and view["isYourTurn"] and view["dice"] == [3, 1]
    return white, black, outsider, match_id


def refused(response, status, code):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body["error"]["message"]


def test_every_refusal_has_its_status_and_code_and_changes_nothing(table, settings, monkeypatch):
    white, black, outsider, match_id = table
    url = f"/api/matches/{match_id}/actions"
    before = game_row(match_id)
    version = white.view(match_id).json()["version"]

    # 401: no key, a bad key
    refused(white.client.post(url, json.dumps({"type": "move", "moves": LEGAL_31}),
                              content_type="application/json"), 401, "unauthorized")
    refused(white.post(url, {"type": "move", "moves": LEGAL_31}, key="bgk_not-a-key"), 401, "bad_key")
    refused(white.get(f"/api/matches/{match_id}", key="bgk_not-a-key"), 401, "bad_key")
    # 403: another match's id; 404: an unknown match
    refused(outsider.post(url, {"type": "move", "moves": LEGAL_31}), 403, "not_your_match")
    refused(outsider.view(match_id), 403, "not_your_match")
    refused(white.post("/api/matches/987654/actions", {"type": "roll"}), 404, "match_not_found")
    refused(white.view(987654), 404, "match_not_found")
    # 409: not your turn, a stale version, the wrong phase
    refused(black.post(url, {"type": "move", "moves": LEGAL_31}), 409, "not_your_turn")
    refused(white.post(url, {"type": "move", "moves": LEGAL_31, "version": version - 1}), 409, "stale_version")
    refused(white.post(url, {"type": "roll"}), 409, "wrong_phase")
    refused(white.post(url, {"type": "take"}), 409, "wrong_phase")
    # 422: an illegal play, naming why (13/12 lands on Black's five checkers on 12)
    message = refused(white.post(url, {"type": "move", "moves": [{"from": 13, "to": 12}, {"from": 8, "to": 5}]}),
                      422, "blocked_point")
    assert "12" in message and "blocked" in message
    refused(white.post(url, {"type": "move", "moves": [{"from": 8, "to": 5}]}), 422, "must_use_both_dice")
    refused(white.post(url, {"type": "move", "moves": []}), 422, "must_move")
    refused(white.post(url, {"type": "double"}), 409, "wrong_phase")
    # 400: malformed bodies and fields
    refused(white.post(url, raw="{not json"), 400, "bad_json")
    refused(white.post(url, raw="[1, 2]"), 400, "bad_body")
    refused(white.post(url, raw=""), 400, "bad_body")
    refused(white.post(url, {"type": "fly"}), 400, "bad_action")
    refused(white.post(url, {"moves": LEGAL_31}), 400, "bad_action")
    refused(white.post(url, {"type": "move", "moves": "8/5 6/5"}), 400, "bad_moves")
    refused(white.post(url, {"type": "move", "moves": [{"from": 8}]}), 400, "bad_step")
    refused(white.post(url, {"type": "move", "moves": [{"from": 0, "to": "x"}]}), 400, "bad_step")
    refused(white.post(url, {"type": "move", "moves": LEGAL_31, "version": "7"}), 400, "bad_version")
    refused(white.post(url, {"type": "move", "moves": LEGAL_31, "version": True}), 400, "bad_version")
    refused(white.post(url, {"type": "move", "move": LEGAL_31}), 400, "unknown_field")
    refused(white.post(url, {"type": "roll", "moves": []}), 400, "unknown_field")
    # 413: a body over 16 KB
    refused(white.post(url, raw=json.dumps({"type": "move", "moves": LEGAL_31, "pad": "x" * 17000})),
            413, "too_large")
    # 405: a wrong method
    refused(white.client.put(url, "{}", content_type="application/json", headers=white.headers()),
            405, "method_not_allowed")
    # 429: a flood (the clock is frozen, so every request falls in the same window)
    settings.GAMES_API_RATE_LIMIT = 5
    frozen = time.time() + 100
    monkeypatch.setattr(ratelimit, "now", lambda: frozen)
    for _ in range(5):
        assert white.view(match_id).status_code == 200
    refused(white.post(url, {"type": "move", "moves": LEGAL_31, "version": version}), 429, "rate_limited")
    refused(white.view(match_id), 429, "rate_limited")
    assert black.view(match_id).status_code == 200  # the limit is per agent
    monkeypatch.setattr(ratelimit, "now", lambda: frozen + 1.5)  # a second and a half later: allowed again

    assert game_row(match_id) == before  # nothing above changed the game

    # ...and the same play, well formed, is accepted.
    response = white.post(url, {"type": "move", "moves": LEGAL_31, "version": version})
    assert response.status_code == 200, response.content
    after = response.json()
    assert after["version"] > version and after["lastTurn"] == LEGAL_31 and not after["isYourTurn"]
    assert game_row(match_id) != before


def test_game_over_and_match_over_are_409(table):
    white, black, outsider, match_id = table
    url = f"/api/matches/{match_id}/actions"
    for _ in range(3):  # resign three games: gammons or singles, the 3-point match ends
        view = white.view(match_id).json()
        if view["matchOver"]:
            break
        assert white.post(url, {"type": "resign", "version": view["version"]}).status_code == 200
    view = white.view(match_id).json()
    assert view["matchOver"] and view["winner"] == black.id and view["currentPlayer"] is None
    assert view["result"]["reason"] == "resign"
    before = game_row(match_id)
    refused(white.post(url, {"type": "roll"}), 409, "match_over")
    refused(black.post(url, {"type": "resign"}), 409, "match_over")
    assert game_row(match_id) == before


def test_registration_stores_only_a_hash_and_refuses_bad_names(agents):
    (agent,) = agents(1)
    stored = Agent.objects.get(player_id=agent.id)
    assert stored.key_hash == hashlib.sha256(agent.key.encode()).hexdigest()
    assert agent.key not in json.dumps(list(Agent.objects.values()), default=str)
    player = Player.objects.get(pk=agent.id)
    assert player.is_bot and not player.user.has_usable_password()
    client = agent.client
    count = Player.objects.count()
    for body, status, code in [
        ({"name": agent.name}, 400, "name_taken"),
        ({"name": agent.name.upper()}, 400, "name_taken"),
        ({"name": ""}, 400, "bad_name"),
        ({"name": "<script>"}, 400, "bad_name"),
        ({"name": "x" * 41}, 400, "bad_name"),
        ({"name": 12}, 400, "bad_name"),
        ({"name": "ok-name", "description": 5}, 400, "bad_description"),
        ({"name": "ok-name", "extra": 1}, 400, "unknown_field"),
        ({}, 400, "missing_field"),
    ]:
        refused(client.post("/api/agents", json.dumps(body), content_type="application/json"), status, code)
    refused(client.post("/api/agents", "{", content_type="application/json"), 400, "bad_json")
    assert Player.objects.count() == count
    me = agent.get("/api/agents/me").json()
    assert me["agentId"] == agent.id and me["name"] == agent.name


def test_a_suspended_agent_is_refused(agents):
    (agent,) = agents(1)
    services.player_set_suspended(player=Player.objects.get(pk=agent.id), suspended=True)
    refused(agent.get("/api/matchmaking/queue"), 403, "suspended")


def test_unknown_api_paths_are_json_404(agents):
    (agent,) = agents(1)
    refused(agent.get("/api/nothing/here"), 404, "not_found")
    refused(agent.get("/api/matches/abc"), 404, "not_found")


def test_view_of_a_game_nobody_started(agents):
    """A bad query parameter is a 400, before anything else."""
    a, b = agents(2)
    a.queue()
    match_id = b.queue().json()["matchId"]
    refused(a.view(match_id, wait="abc", since=1), 400, "bad_wait")
    refused(a.view(match_id, wait=31, since=1), 400, "bad_wait")
    refused(a.view(match_id, wait=1, since=-1), 400, "bad_since")
    assert Game.objects.filter(match_id=match_id).count() == 1
