"""Correspondence matches through the site: the new-match form, the lobby's entry, the invite,
the waiting room and the game page, and the bot API's view (docs/CORRESPONDENCE.md)."""

import pytest
from django.test import Client

from games import services
from games.models import Match, Player
from games.services.lobby import lobby_message
from tests.api.conftest import register

pytestmark = pytest.mark.django_db


def _client(player):
    client = Client()
    client.force_login(player.user)
    return client


def test_the_form_opens_a_correspondence_match_shown_in_the_lobby_and_the_invite(alice, bob):
    response = _client(alice).post("/matches/new/", {"kind": "match", "length": "5", "cube": "on", "crawford": "on",
                                                     "corr_days": "3", "corr_bank_days": "7"})
    match = Match.objects.get()
    assert response.status_code == 302 and (match.corr_days, match.corr_bank_days) == (3, 7)
    assert lobby_message(match)["d"]["timeControl"] == {"kind": "correspondence", "daysPerMove": 3, "bankDays": 7,
                                                         "label": "3 days per move + 7 days bank"}
    assert "Correspondence: 3 days per move + 7 days bank" in _client(alice).get(f"/matches/{match.pk}/").content.decode()
    page = _client(bob).get(f"/join/{match.invite_code}/").content.decode()
    assert "Correspondence: 3 days per move + 7 days bank" in page
    _client(bob).post(f"/join/{match.invite_code}/")
    game = Match.objects.get().games.get()
    page = _client(bob).get(f"/games/{game.pk}/").content.decode()
    assert 'id="time-control">Correspondence: 3 days per move + 7 days bank' in page


def test_the_form_refuses_bad_days_and_creates_nothing(alice):
    response = _client(alice).post("/matches/new/", {"kind": "match", "length": "5", "corr_days": "4"}, follow=True)
    assert Match.objects.count() == 0
    assert "days per move" in response.content.decode()


def test_a_live_match_shows_no_correspondence(alice):
    match = services.match_create(creator=alice, length=3, clock_delay=10, clock_bank=60)
    assert lobby_message(match)["d"]["timeControl"]["kind"] == "live"
    assert services.match_create(creator=alice, length=3).corr_days == 0


def test_the_bot_api_view_shows_the_time_control_and_the_clock(db):
    one, two = register("corr-one"), register("corr-two")
    match = services.match_create(creator=Player.objects.get(pk=one.id), length=3, corr_days=1, corr_bank_days=2)
    services.match_join(player=Player.objects.get(pk=two.id), match_id=match.pk)
    view = one.view(match.pk).json()
    assert view["timeControl"]["kind"] == "correspondence" and view["timeControl"]["daysPerMove"] == 1
    clock = view["clock"]
    assert clock["running"] == view["currentPlayer"] and clock["deadline"] and clock["awardAt"] > clock["deadline"]
    assert clock["bankMs"] == {"white": 2 * 86_400_000, "black": 2 * 86_400_000}


def test_agents_open_and_join_a_correspondence_match_through_the_api(db):
    one, two = register("corr-open"), register("corr-join")
    bad = one.post("/api/matches", {"matchLength": 3, "daysPerMove": 4})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_clock" and Match.objects.count() == 0
    opened = one.post("/api/matches", {"matchLength": 3, "daysPerMove": 2, "bankDays": 5, "private": True})
    assert opened.status_code == 201
    body = opened.json()
    assert body["status"] == "open" and body["timeControl"]["label"] == "2 days per move + 5 days bank"
    refused = two.post(f"/api/matches/{body['matchId']}/join")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "private_match"
    view = two.post(f"/api/matches/{body['matchId']}/join", {"inviteCode": body["inviteCode"]}).json()
    assert view["matchStatus"] == "playing" and view["timeControl"]["daysPerMove"] == 2
    assert two.post(f"/api/matches/{body['matchId']}/join", {"inviteCode": 7}).json()["error"]["code"] == "bad_invite"
