"""Two agents register, queue, get matched and play whole matches over HTTP."""

import random

from games import services
from games.dice import SeededDice
from games.models import GameEvent, Match

from tests.api.conftest import assert_view


def choose(view, rng):
    """A legal action for a view where it is the agent's turn (random, seeded)."""
    offer = view["pendingOffer"]
    if offer and offer["type"] == "double":
        return {"type": "take" if rng.random() < 0.7 else "drop"}
    if offer and offer["type"] == "resign":
        return {"type": "accept"}
    if view["phase"] == "turn":
        assert view["legalMoves"] == []
        return {"type": "double" if view["cube"]["canDouble"] and rng.random() < 0.15 else "roll"}
    assert view["phase"] == "move" and view["legalMoves"], view
    return {"type": "move", "moves": rng.choice(view["legalMoves"])}


def play_match(a, b, match_id, rng, limit=5000):
    """Both agents play until the match is over; returns the last views and what happened."""
    seen = {"double": 0, "take": 0, "drop": 0, "move": 0, "pass": 0, "games": set()}
    views = {a.id: a.view(match_id).json(), b.id: b.view(match_id).json()}
    for _ in range(limit):
        for agent in (a, b):
            response = agent.view(match_id)
            assert response.status_code == 200, response.content
            views[agent.id] = assert_view(response.json())
        if all(v["matchOver"] for v in views.values()):
            return views, seen
        mover = [agent for agent in (a, b) if views[agent.id]["isYourTurn"]]
        assert len(mover) == 1, "exactly one agent must be to act"
        agent = mover[0]
        view = views[agent.id]
        other = views[b.id if agent is a else a.id]
        assert not other["isYourTurn"] and other["legalMoves"] == [] and other["currentPlayer"] == agent.id
        action = choose(view, rng)
        seen[action["type"]] = seen.get(action["type"], 0) + 1
        if action["type"] == "move" and not action["moves"]:
            seen["pass"] += 1
        seen["games"].add(view["gameNumber"])
        response = agent.act(match_id, version=view["version"], **action)
        assert response.status_code == 200, response.content
        after = assert_view(response.json())
        assert after["version"] > view["version"]
        if action["type"] == "move" and not after["matchOver"] and after["gameNumber"] == view["gameNumber"]:
            assert after["lastTurn"] == action["moves"] and after["lastTurnBy"] == agent.id
    raise AssertionError("the match did not end")


def test_two_agents_queue_get_matched_and_play_a_match_to_the_end(agents):
    a, b = agents(2)
    rng = random.Random(20240607)
    with services.use_dice(SeededDice("a1" * 32, 0)):
        first = a.queue(matchLength=3).json()
        assert first == {"status": "queued", "matchLength": 3}
        matched = b.queue(matchLength=3).json()
        assert matched["status"] == "matched"
        match_id = matched["matchId"]
        assert a.get("/api/matchmaking/queue").json() == {"status": "matched", "matchId": match_id}
        views, seen = play_match(a, b, match_id, rng)

    match = Match.objects.get(pk=match_id)
    assert match.status == Match.FINISHED and match.winner_id in (a.id, b.id)
    va, vb = views[a.id], views[b.id]
    assert va["winner"] == vb["winner"] == match.winner_id
    assert {va["yourColor"], vb["yourColor"]} == {"white", "black"}
    assert va["opponent"]["id"] == b.id and vb["opponent"]["id"] == a.id
    assert max(va["score"].values()) >= 3 and va["score"] == vb["score"]
    assert va["matchLength"] == 3 and va["gameId"] == "backgammon" and va["matchId"] == match_id
    # The cube was used (the agents double 15 % of the time they may) and games were played.
    assert seen["double"] >= 1 and seen["take"] + seen["drop"] == seen["double"]
    assert seen["move"] > 20
    # Every accepted action became numbered events, all acted by the two agents.
    actors = set(GameEvent.objects.filter(game__match_id=match_id).exclude(actor=None)
                 .values_list("actor_id", flat=True))
    assert actors <= {a.id, b.id}


def test_one_point_matches_again_and_again(agents):
    """Re-queueing after a finished match makes a new match (1-point: no cube, no 'turn' phase)."""
    a, b = agents(2)
    rng = random.Random(7)
    ids = []
    with services.use_dice(SeededDice("b2" * 32, 0)):
        for _ in range(2):
            a.queue()
            match_id = b.queue().json()["matchId"]
            views, seen = play_match(a, b, match_id, rng)
            assert seen["double"] == 0 and "turn" not in {v["phase"] for v in views.values()}
            assert views[a.id]["matchOver"] and views[a.id]["result"]["winnerId"] == views[a.id]["winner"]
            ids.append(match_id)
    assert ids[0] != ids[1]
