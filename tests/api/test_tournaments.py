"""Bot-API agents in tournaments: list, read, enter and withdraw over HTTP, then play their
pairing's match through the match endpoints like any other; refusals are JSON errors."""

import random

from games import services
from games.models import Agent, Entry, Match, Tournament

from tests.api.test_play import play_match


def test_agents_list_enter_and_play_their_pairing_to_the_end(agents):
    a, b = agents(2)
    director = services.player_register(username="td", password="correct horse td")
    t = services.tournament_create(by=director, name="Agents cup", format="knockout", length=1)
    listed = a.get("/api/tournaments", status="upcoming").json()["tournaments"]
    assert [(x["id"], x["status"], x["entrants"]) for x in listed] == [(t.pk, "registering", 0)]
    for agent in (a, b):
        r = agent.post(f"/api/tournaments/{t.pk}/entries")
        assert r.status_code == 201, r.content
        assert r.json()["you"]["entered"] and not r.json()["you"]["canEnter"]
    services.tournament_start(tournament_id=t.pk, by=director)
    view = a.get(f"/api/tournaments/{t.pk}").json()
    assert view["status"] == "running" and len(view["matches"]) == 1
    match_id = view["you"]["nextMatch"]
    assert match_id == view["matches"][0]["matchId"]
    assert [m["matchId"] for m in a.get("/api/matches", status="playing").json()["matches"]] == [match_id]
    views, _ = play_match(a, b, match_id, random.Random(3))
    done = a.get(f"/api/tournaments/{t.pk}").json()
    assert done["status"] == "finished"
    assert done["winner"]["id"] == Match.objects.get(pk=match_id).winner_id
    assert done["standings"][0]["player"] == done["winner"]["id"]
    assert [x["id"] for x in a.get("/api/tournaments", status="finished").json()["tournaments"]] == [t.pk]


def test_an_agent_withdraws_with_delete(agents):
    (a,) = agents(1)
    t = services.tournament_create(by=None, name="Open", format="swiss", length=3)
    a.post(f"/api/tournaments/{t.pk}/entries")
    r = a.delete(f"/api/tournaments/{t.pk}/entries")
    assert r.status_code == 200 and r.json()["you"]["canEnter"] and r.json()["entrants"] == 0
    assert Entry.objects.get(tournament=t).status == Entry.WITHDRAWN


def test_refusals_are_json_errors_that_change_nothing(agents):
    a, b = agents(2)
    t = services.tournament_create(by=None, name="Full", format="knockout", length=1, max_entrants=2)
    assert a.get("/api/tournaments/999").status_code == 404
    assert a.get("/api/tournaments/999").json()["error"]["code"] == "tournament_not_found"
    assert a.get("/api/tournaments", status="soon").json()["error"]["code"] == "bad_status"
    assert a.delete(f"/api/tournaments/{t.pk}/entries").json()["error"]["code"] == "not_entered"
    a.post(f"/api/tournaments/{t.pk}/entries")
    r = a.post(f"/api/tournaments/{t.pk}/entries")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "already_entered")
    assert a.client.get("/api/tournaments").status_code == 401
    assert a.get(f"/api/tournaments/{t.pk}/entries").status_code == 405
    services.tournament_enter(tournament_id=t.pk, player=services.player_register(username="z", password="correct horse z"))
    r = b.post(f"/api/tournaments/{t.pk}/entries")  # full: the waiting list
    assert r.status_code == 201 and r.json()["you"]["waiting"] and [w["name"] for w in r.json()["waitingList"]] == [b.name]
    assert Entry.objects.filter(tournament=t, status=Entry.ENTERED).count() == 2
    assert Tournament.objects.get(pk=t.pk).status == Tournament.REGISTERING


def test_a_director_agent_acts_through_the_api_and_the_log_shows_it(agents):
    a, b, c = agents(3)
    for agent in (a, b, c):
        agent.player = Agent.objects.get(player_id=agent.id).player  # agentId is the player's id
    t = services.tournament_create(by=a.player, name="Run by a bot", format="swiss", length=1)
    for agent in (a, b, c):
        agent.post(f"/api/tournaments/{t.pk}/entries")
    services.tournament_start(tournament_id=t.pk, by=a.player)
    before = Tournament.objects.get(pk=t.pk).version
    r = b.post(f"/api/tournaments/{t.pk}/director", {"action": "pause"})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_a_director")
    r = a.post(f"/api/tournaments/{t.pk}/director", {"action": "explode"})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_action")
    r = a.post(f"/api/tournaments/{t.pk}/director", {"action": "award", "key": "R1-1", "winner": 0})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_winner")
    r = a.post(f"/api/tournaments/{t.pk}/director", {"action": "pause", "colour": "red"})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "unknown_field")
    assert Tournament.objects.get(pk=t.pk).version == before  # nothing changed
    r = a.post(f"/api/tournaments/{t.pk}/director", {"action": "pause", "reason": "lunch"})
    assert r.status_code == 200 and r.json()["paused"]
    r = a.post(f"/api/tournaments/{t.pk}/director", {"action": "disqualify", "player": c.player.pk})
    assert r.status_code == 200
    assert [(x["action"], x["reason"]) for x in r.json()["log"]] == [("pause", "lunch"), ("disqualify", None)]
    assert Entry.objects.get(tournament=t, player=c.player).status == Entry.DISQUALIFIED
