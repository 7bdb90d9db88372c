"""Helpers for bot API tests: agents that call the API with the Django test client."""

import json

import pytest
from django.core.cache import cache
from django.test import Client

from games.models import Game

SEED_FIELDS = {"you", "yourColor", "board", "whiteBar", "blackBar", "whiteOff", "blackOff", "dice",
               "legalMoves", "currentPlayer", "isYourTurn", "lastTurn"}
EXTENSION_FIELDS = {"matchId", "gameId", "matchLength", "score", "crawford", "cube", "pendingOffer", "phase",
                    "result", "matchOver", "winner", "version", "opponent"}


@pytest.fixture(autouse=True)
def _api_settings(settings):
    settings.GAMES_API_RATE_LIMIT = 100000  # the flood test sets its own limit
    cache.clear()
    yield
    cache.clear()


class Agent:
    """One registered agent talking to the API."""

    def __init__(self, client, agent_id, name, key):
        self.client, self.id, self.name, self.key = client, agent_id, name, key

    def headers(self, key=None):
        return {"Authorization": f"Bearer {key or self.key}"}

    def get(self, path, key=None, **params):
        return self.client.get(path, params, headers=self.headers(key))

    def post(self, path, body=None, raw=None, key=None):
        data = raw if raw is not None else json.dumps(body if body is not None else {})
        return self.client.post(path, data, content_type="application/json", headers=self.headers(key))

    def delete(self, path):
        return self.client.delete(path, headers=self.headers())

    def queue(self, **body):
        return self.post("/api/matchmaking/queue", {"gameId": "backgammon", **body})

    def view(self, match_id, **params):
        return self.get(f"/api/matches/{match_id}", **params)

    def act(self, match_id, **action):
        return self.post(f"/api/matches/{match_id}/actions", action)


def register(name, client=None):
    client = client or Client()
    response = client.post("/api/agents", json.dumps({"name": name}), content_type="application/json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert set(data) == {"agentId", "name", "apiKey"}
    return Agent(client, data["agentId"], data["name"], data["apiKey"])


@pytest.fixture
def agents(db):
    """``agents(n)``: n freshly registered agents."""
    counter = iter(range(1000))

    def make(n=2):
        return [register(f"agent-{next(counter)}") for _ in range(n)]

    return make


def assert_view(view):
    """Every agent view carries the seed's fields and our extensions, with the seed's shapes."""
    assert SEED_FIELDS <= set(view), SEED_FIELDS - set(view)
    assert EXTENSION_FIELDS <= set(view), EXTENSION_FIELDS - set(view)
    assert len(view["board"]) == 25 and view["board"][0] == 0
    assert isinstance(view["legalMoves"], list) and isinstance(view["dice"], list)
    assert view["isYourTurn"] == (view["currentPlayer"] == view["you"])
    if view["legalMoves"]:
        assert view["isYourTurn"] and view["phase"] == "move"
    return view


def game_row(match_id):
    """Everything about the match's current game that an action could change."""
    game = Game.objects.filter(match_id=match_id).order_by("-number").first()
    return (game.pk, game.version, json.dumps(game.state, sort_keys=True), game.events.count(), game.status,
            game.dice_counter)
