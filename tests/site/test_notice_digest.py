"""The "invitation accepted" notice, the daily digest, and notices worded in the recipient's
language (docs/CORRESPONDENCE.md): through Django's outbox, time moved with clock.freeze."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import translation

from games import clock, services
from games.models import PendingNotice, Player
from tests.site.conftest import MINUTE, NOTICE_START, corr_match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("notice_settings")]

START = NOTICE_START


def _verified(player, address, **chosen):
    services.player_set_email(player=player, email=address)
    Player.objects.filter(pk=player.pk).update(email_verified=address)
    if chosen:
        services.player_update_settings(player=player, changes=chosen)
    return Player.objects.select_related("user").get(pk=player.pk)


def _join(capture, white, black, **kwargs):
    return corr_match(white, black, capture=capture, **kwargs)


def test_the_creator_is_told_when_an_opponent_accepts(alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    alice = _verified(alice, "alice@example.com")
    match = _join(capture, alice, bob)
    (mail,) = mailoutbox
    assert mail.to == ["alice@example.com"] and mail.subject == f"{bob.display_name} accepted your invitation"
    assert f"http://testserver/matches/{match.pk}/" in mail.body and "/notices/unsubscribe/" in mail.body
    # A live match's creator waits at the board: no mail; nor when the kind is switched off.
    with capture(execute=True):
        live = services.match_create(creator=alice, length=1)
        services.match_join(player=bob, match_id=live.pk)
    services.player_update_settings(player=alice, changes={"mail_accepted": False})
    _join(capture, Player.objects.get(pk=alice.pk), bob)
    assert len(mailoutbox) == 1
    # The mail's link turns that kind off.
    services.player_update_settings(player=alice, changes={"mail_accepted": True})
    link = re.search(r"http://testserver(/notices/unsubscribe/\S+/)", mail.body).group(1)
    assert Client().post(link).status_code == 200
    assert Player.objects.get(pk=alice.pk).settings["mail_accepted"] is False


def test_the_digest_mails_the_notices_of_a_day_at_once(alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    alice = _verified(alice, "alice@example.com", digest=True)
    first = _join(capture, alice, bob)
    _join(capture, alice, bob, at=START + 2 * MINUTE)
    with clock.freeze(START + 10 * MINUTE), capture(execute=True):
        assert services.notices_send()["turn"] == 1  # Alice's turn in both: held for the digest too
    assert not mailoutbox and PendingNotice.objects.filter(player=alice).count() == 3
    with clock.freeze(START + timedelta(hours=23)), capture(execute=True):
        assert services.digests_send() == 0  # the oldest notice is not a day old yet
    with clock.freeze(START + timedelta(hours=24, minutes=1)), capture(execute=True):
        assert services.digests_send() == 1
    (mail,) = mailoutbox
    assert mail.to == ["alice@example.com"] and mail.subject == "Your notices of the day"
    assert mail.body.count(f"{bob.display_name} accepted your invitation") == 2
    assert "Your turn in 2 matches" in mail.body and f"http://testserver/matches/{first.pk}/" in mail.body
    assert "http://testserver/settings/" in mail.body and "/notices/unsubscribe/" in mail.body
    assert not PendingNotice.objects.exists()
    with clock.freeze(START + timedelta(hours=48)), capture(execute=True):
        assert services.digests_send() == 0  # nothing held: nothing mailed
    # "Time running low" is never held: it would come too late.
    with clock.freeze(START + timedelta(days=1, hours=13)), capture(execute=True):
        assert services.notices_send()["low"] == 2
    assert [m.subject for m in mailoutbox[1:]] == ["Your time is running low"] * 2


def test_notices_are_worded_in_the_recipients_language(alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    alice = _verified(alice, "alice@example.com", language="tr")
    with translation.override("de"):  # the request that causes it speaks another language
        _join(capture, alice, bob)
    with translation.override("tr"):
        subject = translation.gettext("%(name)s accepted your invitation") % {"name": bob.display_name}
        hello = translation.gettext("Hello %(name)s,") % {"name": alice.display_name}
    assert subject != f"{bob.display_name} accepted your invitation", "the tr catalogue has no such entry"
    (mail,) = mailoutbox
    assert mail.subject == subject and mail.body.startswith(hello)


def test_a_tournament_matchs_name_is_worded_in_the_recipients_language(alice, bob, mailoutbox, monkeypatch,
                                                                       django_capture_on_commit_callbacks):
    """The pairing is made by a request in Turkish (or a worker): the name the tournament core
    gave the match ("Final", stored in English) reaches alice's mail and push in her German."""
    from games.engine import errors as engine_errors

    monkeypatch.setattr(engine_errors, "translate", lambda text: f"[{translation.get_language()}] {text}")
    alice = _verified(alice, "alice@example.com", language="de")
    t = services.tournament_create(by=alice, name="Cup", format="knockout", length=1)
    for p in (alice, bob):
        services.tournament_enter(tournament_id=t.pk, player=p)
    with translation.override("tr"), django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament_id=t.pk)
    (mail,) = [m for m in mailoutbox if "alice@example.com" in m.to]
    assert "[de] Final" in mail.body and "[tr]" not in mail.body
