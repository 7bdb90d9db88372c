"""Bot-API agents in chouettes: an agent opens one over HTTP, people and a house bot join,
the agent starts it and plays its seat (box or member) through the API to the end of the
game; refusals are JSON errors that change nothing."""

import pytest

from games import services
from games.models import Chouette
from tests.services.chouette_support import CycleDice, polite, state

from tests.api.conftest import register

pytestmark = pytest.mark.django_db(transaction=True)


def _agent_policy(view):
    """What the agent does with its first decision: the polite answer, from the view alone."""
    d = view["yourDecisions"][0]
    if d["reason"] == "move":
        return {"type": "move", "moves": view["game"]["legal"][0]}
    if d["reason"] == "double_decision":
        return {"type": "no_double"}
    if d["reason"] == "double_answer":
        return {"type": "take", "cube": d["cubes"][0]}
    if d["reason"] == "buy_decision":
        return {"type": "no_buy", "cube": d["cubes"][0]}
    if d["reason"] == "raccoon_decision":
        return {"type": "no_raccoon", "cube": d["cubes"][0]}
    return {"type": "drop"}


def test_an_agent_opens_starts_and_plays_a_chouette_game(_api_settings):
    agent = register("chouette-agent")
    r = agent.post("/api/chouettes", {"options": {"jacoby": True}, "decisionSeconds": 30})
    assert r.status_code == 201, r.content
    cid = r.json()["chouette"]
    humans = [services.player_register(username=f"ah{i}", password=f"correct horse {i}") for i in range(2)]
    for p in humans:
        services.chouette_join(player=p, chouette_id=cid)
    services.chouette_add_bot(chouette_id=cid, player=humans[0], level="beginner")
    listed = agent.get("/api/chouettes").json()
    assert any(c["id"] == cid and len(c["seats"]) == 4 for c in listed["open"])
    with services.use_dice(CycleDice([6, 5, 4, 3, 1, 3])):  # the agent is the box; the team moves first
        r = agent.post(f"/api/chouettes/{cid}/start")
    assert r.status_code == 200, r.content
    assert r.json()["role"] == "box"

    # refusals: JSON, stable codes, nothing changed
    before = Chouette.objects.get(pk=cid).version
    for body, status, code in [({"type": "fly"}, 400, "bad_action"),
                               ({"type": "take", "cube": 1, "amount": 2}, 400, "unknown_field"),
                               ({"type": "no_double", "version": 0}, 409, "stale_version"),
                               ({"type": "move", "moves": []}, 409, "not_your_turn")]:
        r = agent.post(f"/api/chouettes/{cid}/actions", body)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.content
    assert Chouette.objects.get(pk=cid).version == before
    assert agent.get("/api/chouettes/999999").status_code == 404

    by_id = {p.pk: p for p in humans}
    agent_acts = 0
    with services.use_dice(CycleDice()):
        for _ in range(3000):
            c, _row, session, game = state(cid)
            if session.games_played >= 1:
                break
            view = agent.get(f"/api/chouettes/{cid}").json()
            assert view["version"] == c.version
            if view["isYourTurn"]:
                action = _agent_policy(view)
                r = agent.post(f"/api/chouettes/{cid}/actions", {**action, "version": view["version"]})
                assert r.status_code == 200, r.content
                agent_acts += 1
                continue
            p = next(p for p in game.pending() if p.player in by_id)
            a, fields = polite(game, p)
            services.chouette_act(chouette_id=cid, player=by_id[p.player], action=a, **fields)
        else:
            raise AssertionError("the game did not end")
    assert agent_acts > 5
    # a long poll with nothing new answers after the wait with the same version
    v = agent.get(f"/api/chouettes/{cid}").json()["version"]
    assert agent.get(f"/api/chouettes/{cid}", wait=0.2, since=v).json()["version"] == v
    assert sum(p for _w, p in state(cid)[2].scores) == 0
