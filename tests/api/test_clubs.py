"""Bot-API agents in clubs: join by the invite token, read the ladder, challenge, play the
challenge's match through the match endpoints and see the places swap; refusals are JSON
errors that change nothing; the tournaments list by club."""

import random

from games import services
from games.models import Agent, Challenge, Match, Membership

from tests.api.test_play import play_match


def player_of(agent):
    return Agent.objects.get(player_id=agent.id).player  # the fixture's id is the player's


def test_agents_join_challenge_and_play_the_ladder_match(agents):
    a, b = agents(2)
    owner = services.player_register(username="owner", password="correct horse owner")
    club = services.club_create(by=owner, name="Bots' club", match_length=1)
    for agent in (a, b):
        r = agent.post("/api/clubs/join", {"token": club.invite_token})
        assert r.status_code == 201, r.content
        assert r.json()["you"]["isMember"] and "inviteToken" not in r.json()
    listed = a.get("/api/clubs").json()["clubs"]
    assert [(c["id"], c["members"], c["isMember"]) for c in listed] == [(club.pk, 3, True)]
    view = b.get(f"/api/clubs/{club.pk}").json()
    assert [m["name"] for m in view["memberList"]] == ["owner", a.name, b.name]
    assert view["you"]["canChallenge"] == [owner.pk, player_of(a).pk]
    r = b.post(f"/api/clubs/{club.pk}/challenges", {"defender": player_of(a).pk})
    assert r.status_code == 201, r.content
    challenge = r.json()
    assert challenge["status"] == "open" and challenge["length"] == 1
    assert (challenge["challenger"]["position"], challenge["defender"]["position"]) == (3, 2)
    assert [m["matchId"] for m in b.get("/api/matches", status="playing").json()["matches"]] == [challenge["matchId"]]
    play_match(a, b, challenge["matchId"], random.Random(5))
    winner = Match.objects.get(pk=challenge["matchId"]).winner_id
    after = a.get(f"/api/clubs/{club.pk}").json()
    done = after["recentChallenges"][0]
    assert done["status"] == "played" and done["winner"] == winner and done["swapped"] == (winner == player_of(b).pk)
    order = [m["name"] for m in after["memberList"]]
    assert order == (["owner", b.name, a.name] if winner == player_of(b).pk else ["owner", a.name, b.name])


def test_refusals_are_json_errors_that_change_nothing(agents):
    a, b, c = agents(3)
    owner = services.player_register(username="owner", password="correct horse owner")
    club = services.club_create(by=owner, name="Strict")
    for agent in (a, b):
        agent.post("/api/clubs/join", {"token": club.invite_token})

    def code(r):
        return r.status_code, r.json()["error"]["code"]

    assert code(a.get("/api/clubs/999")) == (404, "club_not_found")
    assert code(c.post("/api/clubs/join", {"token": "wrong"})) == (404, "bad_invite")
    assert code(a.post("/api/clubs/join", {"token": club.invite_token})) == (409, "already_member")
    assert code(a.post("/api/clubs/join", {"code": "x"})) == (400, "unknown_field")
    assert code(c.post(f"/api/clubs/{club.pk}/challenges", {"defender": owner.pk})) == (403, "not_a_member")
    assert code(b.post(f"/api/clubs/{club.pk}/challenges", {"defender": player_of(c).pk})) == (403, "no_such_member")
    assert code(a.post(f"/api/clubs/{club.pk}/challenges", {"defender": player_of(b).pk})) == (409, "out_of_range")
    assert code(b.post(f"/api/clubs/999/challenges", {"defender": owner.pk})) == (404, "club_not_found")
    assert b.post(f"/api/clubs/{club.pk}/challenges", {"defender": player_of(a).pk}).status_code == 201
    assert code(b.post(f"/api/clubs/{club.pk}/challenges", {"defender": owner.pk})) == (409, "challenge_open")
    assert code(c.delete(f"/api/clubs/{club.pk}/membership")) == (403, "not_a_member")
    assert Challenge.objects.count() == 1 and Membership.objects.filter(club=club).count() == 3
    assert a.client.get("/api/clubs").status_code == 401
    assert a.get(f"/api/clubs/{club.pk}/challenges").status_code == 405


def test_leaving_and_the_tournaments_of_a_club(agents):
    (a,) = agents(1)
    owner = services.player_register(username="owner", password="correct horse owner")
    club = services.club_create(by=owner, name="Cup club")
    a.post("/api/clubs/join", {"token": club.invite_token})
    cup = services.club_tournament_create(club_id=club.pk, by=owner, name="Club cup", format="knockout", length=3)
    services.tournament_create(by=owner, name="Open", format="swiss", length=3)
    listed = a.get("/api/tournaments", club=str(club.pk)).json()["tournaments"]
    assert [(t["id"], t["club"]["name"]) for t in listed] == [(cup.pk, "Cup club")]
    assert len(a.get("/api/tournaments").json()["tournaments"]) == 2
    assert a.get("/api/tournaments", club="999").json()["error"]["code"] == "club_not_found"
    r = a.delete(f"/api/clubs/{club.pk}/membership")
    assert r.status_code == 200 and not r.json()["you"]["isMember"] and r.json()["members"] == 1
