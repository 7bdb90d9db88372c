"""Notices by e-mail through Django's outbox: the address verified by a signed link, "your
turn" once per quiet period (not per move), "time running low" once per decision, each kind
off in the settings or by the mail's link (time moved with clock.freeze, never slept)."""

import re
from datetime import timedelta

import pytest
from django.test import Client

from games import clock, services
from games.dice import ScriptedDice
from games.models import Game, Player
from tests.site.conftest import MINUTE, NOTICE_START, corr_match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("notice_settings")]

START = NOTICE_START


def _client(player):
    client = Client()
    client.force_login(player.user)
    return client


def _verify(player, address, outbox, capture):
    client = _client(player)
    client.post("/settings/email/", {"email": address})
    with capture(execute=True):
        client.post("/accounts/verify-email/")
    link = re.search(r"http://testserver(/accounts/verify-email/\S+/)", outbox[-1].body).group(1)
    assert outbox[-1].to == [address]
    page = client.get(link)
    assert page.status_code == 200 and "Address verified" in page.content.decode()
    return Player.objects.select_related("user").get(pk=player.pk)


def _send(capture, at):
    with clock.freeze(at), capture(execute=True):
        return services.notices_send()


def _corr_match(white, black, **kwargs):
    return Game.objects.get(match=corr_match(white, black, **kwargs))


def test_an_address_is_verified_by_its_signed_link(alice, mailoutbox, django_capture_on_commit_callbacks):
    alice = _verify(alice, "alice@example.com", mailoutbox, django_capture_on_commit_callbacks)
    assert alice.email_verified == "alice@example.com"
    assert "Verified" in _client(alice).get("/settings/").content.decode()
    bad = Client().get("/accounts/verify-email/nonsense/")
    assert bad.status_code == 400 and 'data-code="bad_token"' in bad.content.decode()
    # A changed address is no longer verified, and an old link cannot verify the new one.
    token = services.email_verification_send(player=alice)
    _client(alice).post("/settings/email/", {"email": "new@example.com"})
    assert Player.objects.get(pk=alice.pk).email_verified == ""
    assert Client().get(f"/accounts/verify-email/{token}/").status_code == 409
    before = len(mailoutbox)
    _client(alice).post("/settings/email/", {"email": "not an address"})
    assert Player.objects.get(pk=alice.pk).user.email == "new@example.com" and len(mailoutbox) == before


def test_your_turn_once_per_quiet_period_not_per_move(alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    alice = _verify(alice, "alice@example.com", mailoutbox, capture)
    bob = _verify(bob, "bob@example.com", mailoutbox, capture)
    mailoutbox.clear()
    game = _corr_match(alice, bob)
    _corr_match(alice, bob)  # a second match waiting for Alice: one mail lists both
    assert _send(capture, START + MINUTE) == {"turn": 0, "low": 0}  # not yet: she may be at the board
    assert _send(capture, START + 6 * MINUTE)["turn"] == 1
    (mail,) = mailoutbox
    assert mail.to == ["alice@example.com"] and mail.subject == "Your turn in 2 matches"
    assert f"http://testserver/games/{game.pk}/" in mail.body and "/notices/unsubscribe/" in mail.body
    assert _send(capture, START + 7 * MINUTE)["turn"] == 0  # told once

    # Alice and Bob play a few moves: Bob is told once, Alice not again within the quiet period.
    for i, (color, player) in enumerate([("white", alice), ("black", bob), ("white", alice), ("black", bob)]):
        with clock.freeze(START + (10 + 20 * i) * MINUTE), services.use_dice(ScriptedDice([(6, 5)] * 3)):
            state = Game.objects.get(pk=game.pk).game_state()
            if state.phase == "turn":
                services.game_roll(game_id=game.pk, player=player)
                state = Game.objects.get(pk=game.pk).game_state()
            services.game_move(game_id=game.pk, player=player, moves=[s.to_dict() for s in state.legal_plays()[0].steps])
        _send(capture, START + (25 + 20 * i) * MINUTE)
    assert [m.to for m in mailoutbox] == [["alice@example.com"], ["bob@example.com"]]
    # After the quiet period, the turn that came to Alice since her last mail is told.
    assert _send(capture, START + timedelta(hours=12, minutes=10))["turn"] == 1
    assert mailoutbox[-1].to == ["alice@example.com"] and mailoutbox[-1].subject == "Your turn in 1 match"
    assert f"/games/{game.pk}/" in mailoutbox[-1].body


def test_no_mail_to_an_unverified_address_one_switched_off_or_a_player_at_the_board(
        alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    services.player_set_email(player=alice, email="alice@example.com")  # not verified
    game = _corr_match(alice, bob)
    assert _send(capture, START + 10 * MINUTE)["turn"] == 0 and not mailoutbox
    alice = _verify(alice, "alice@example.com", mailoutbox, capture)
    mailoutbox.clear()
    services.presence_join(match_id=game.match_id, channel_name="c1", player=alice, role="white")
    assert _send(capture, START + 11 * MINUTE)["turn"] == 0
    services.presence_leave(channel_name="c1")
    services.player_update_settings(player=alice, changes={"mail_turn": False})
    assert _send(capture, START + 12 * MINUTE)["turn"] == 0 and not mailoutbox
    _client(alice).post("/settings/", {"mail_turn": "on", "mail_low": "on", "confirm": "on"})
    assert _send(capture, START + 13 * MINUTE)["turn"] == 1


def test_time_running_low_once_per_decision_and_its_unsubscribe_link(
        alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    alice = _verify(alice, "alice@example.com", mailoutbox, capture)
    mailoutbox.clear()
    services.player_update_settings(player=alice, changes={"mail_turn": False})
    game = _corr_match(alice, bob, days=1)  # deadline: a day after the start
    assert _send(capture, START + timedelta(hours=11))["low"] == 0
    assert _send(capture, START + timedelta(hours=13))["low"] == 1
    assert _send(capture, START + timedelta(hours=14))["low"] == 0
    (mail,) = mailoutbox
    assert mail.subject == "Your time is running low" and f"/games/{game.pk}/" in mail.body
    link = re.search(r"http://testserver(/notices/unsubscribe/\S+/)", mail.body).group(1)
    assert "Unsubscribe" in Client().get(link).content.decode()
    assert Player.objects.get(pk=alice.pk).settings.get("mail_low", True) is True  # a GET changes nothing
    assert "No more" in Client().post(link).content.decode()
    assert Player.objects.get(pk=alice.pk).settings["mail_low"] is False
    assert Client().post("/notices/unsubscribe/forged/").status_code == 400
