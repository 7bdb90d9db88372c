"""Registration: the entry limit and its waiting list, the rating band, check-in before the
start, late entries in a Swiss; a correspondence tournament's matches and deadlines."""

from datetime import timedelta

import pytest

from games import clock, services
from games.errors import BadRequest, Conflict
from games.models import DirectorAction, Entry, Player, TournamentMatch
from games.selectors.tournaments import tournament_detail
from games.tournament import load
from tests.tournament_site.conftest import tournament, tournament_matches


def statuses(t):
    return {e.player.display_name: e.status for e in Entry.objects.filter(tournament=t).select_related("player")}


def test_a_full_tournament_keeps_a_waiting_list_promoted_in_order_when_someone_withdraws(people):
    t = services.tournament_create(by=people[0], name="Four", format="knockout", max_entrants=2)
    for p in people[:4]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    assert statuses(t) == {"ann": "entered", "bob": "entered", "cy": "waiting", "dee": "waiting"}
    assert [w["name"] for w in tournament_detail(tournament(t.pk))["waitingList"]] == ["cy", "dee"]
    services.tournament_withdraw(tournament_id=t.pk, player=people[0])
    assert statuses(t) == {"ann": "withdrawn", "bob": "entered", "cy": "entered", "dee": "waiting"}
    services.tournament_withdraw(tournament_id=t.pk, player=people[3])  # leaving the list promotes nobody
    services.tournament_enter(tournament_id=t.pk, player=people[0])  # back: at the end of the list
    assert statuses(t)["ann"] == "waiting"
    services.tournament_start(tournament_id=t.pk)
    assert set(load(tournament(t.pk).state).players) == {people[1].pk, people[2].pk}
    assert DirectorAction.objects.filter(tournament=t, action=DirectorAction.PROMOTED).count() == 1


def test_the_rating_band_refuses_a_player_outside_it_and_changes_nothing(people):
    Player.objects.filter(pk=people[1].pk).update(rating=1800)
    t = services.tournament_create(by=people[0], name="Band", format="knockout", min_rating=1400, max_rating=1600)
    services.tournament_enter(tournament_id=t.pk, player=people[0])  # 1500
    with pytest.raises(Conflict) as exc:
        services.tournament_enter(tournament_id=t.pk, player=Player.objects.get(pk=people[1].pk))
    assert exc.value.code == "out_of_band"
    assert statuses(t) == {"ann": "entered"}


@pytest.mark.parametrize("fields, code", [
    ({"min_rating": 1600, "max_rating": 1400}, "bad_rating_band"),
    ({"min_rating": -1}, "bad_rating_band"),
    ({"check_in_minutes": 30}, "bad_check_in"),  # no start time
    ({"late_entries": True}, "late_entries_not_allowed"),  # a knock-out
    ({"corr_days": 4}, "bad_clock"),
    ({"corr_days": 2, "format": "arena"}, "bad_clock"),
])
def test_bad_registration_options_are_refused(people, fields, code):
    with pytest.raises(BadRequest) as exc:
        services.tournament_create(by=people[0], name="Bad", **{"format": "knockout", **fields})
    assert exc.value.code == code


def test_check_in_before_the_start_removes_who_did_not_and_promotes_the_waiting_list(people):
    start = clock.now() + timedelta(hours=1)
    t = services.tournament_create(by=people[0], name="Check", format="roundrobin", max_entrants=3,
                                   starts_at=start, check_in_minutes=30)
    for p in people[:5]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    with pytest.raises(Conflict) as exc:
        services.tournament_check_in(tournament_id=t.pk, player=people[0], now=start - timedelta(minutes=31))
    assert exc.value.code == "check_in_not_open"
    for p in (people[0], people[1], people[4]):  # cy does not check in; eve, waiting, does; dee, waiting, not
        services.tournament_check_in(tournament_id=t.pk, player=p, now=start - timedelta(minutes=10))
    with pytest.raises(Conflict) as exc:
        services.tournament_check_in(tournament_id=t.pk, player=people[0], now=start - timedelta(minutes=5))
    assert exc.value.code == "already_checked_in"
    with clock.freeze(start):
        services.tournament_start_due(now=start)
    assert statuses(t) == {"ann": "entered", "bob": "entered", "cy": "removed", "dee": "waiting", "eve": "entered"}
    assert set(load(tournament(t.pk).state).players) == {people[0].pk, people[1].pk, people[4].pk}
    log = [(a["action"], a["player"]["name"]) for a in tournament_detail(tournament(t.pk))["log"]]
    assert log == [("not_checked_in", "cy"), ("promoted", "eve")]


def test_a_late_entry_in_a_swiss_is_paired_from_the_next_round(people):
    t = services.tournament_create(by=people[0], name="Late", format="swiss", length=1, late_entries=True,
                                   options={"rounds": 2, "seeding": "given"})
    for p in people[:4]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    services.tournament_enter(tournament_id=t.pk, player=people[4])
    assert people[4].pk in load(tournament(t.pk).state).players
    for m in tournament_matches(t.pk):
        services.match_leave(match_id=m.pk, player=m.black)
    second = load(tournament(t.pk).state).round_pairings(2)
    assert people[4].pk in {p for pairing in second for p in pairing.players}


def test_a_knockout_takes_no_late_entry(people):
    t = services.tournament_create(by=people[0], name="KO", format="knockout")
    for p in people[:2]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    with pytest.raises(Conflict) as exc:
        services.tournament_enter(tournament_id=t.pk, player=people[2])
    assert exc.value.code == "registration_closed"


def test_a_correspondence_tournament_plays_its_matches_by_correspondence_and_its_deadline_agrees(people):
    t = services.tournament_create(by=people[0], name="Over days", format="knockout", corr_days=3, corr_bank_days=5,
                                   round_deadline_hours=24)
    for p in people[:2]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    (match,) = tournament_matches(t.pk)
    assert (match.corr_days, match.corr_bank_days) == (3, 5)
    link = TournamentMatch.objects.get(match=match)
    game = match.games.get()
    assert link.deadline - match.started_at == timedelta(days=3)  # not 24 hours: the first move's days
    assert match.white_bank_ms == match.black_bank_ms == 5 * 86_400_000
    # the player on roll has their days per move plus the bank: never less than the round's deadline
    assert link.deadline <= game.clock_deadline and game.clock_deadline - link.deadline < timedelta(days=5, seconds=10)


def test_both_players_are_mailed_when_their_pairing_is_ready_unless_their_setting_is_off(
        people, mailoutbox, django_capture_on_commit_callbacks, settings):
    settings.GAMES_SITE_URL = "http://testserver"
    for p, address in ((people[0], "ann@example.org"), (people[1], "bob@example.org")):
        p.user.email = address
        p.user.save()
        Player.objects.filter(pk=p.pk).update(email_verified=address)
    Player.objects.filter(pk=people[1].pk).update(settings={"mail_tournament": False})
    t = services.tournament_create(by=people[0], name="Mailed", format="knockout", length=1)
    for p in people[:2]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament_id=t.pk)
    (mail,) = mailoutbox  # bob turned them off
    (match,) = tournament_matches(t.pk)
    assert mail.to == ["ann@example.org"] and "Mailed" in mail.subject
    assert f"http://testserver/games/{match.games.get().pk}/" in mail.body and "against bob" in mail.body
    assert "/notices/unsubscribe/" in mail.body


def test_a_late_entry_in_an_arena_joins_the_pool_at_once(people):
    t = services.tournament_create(by=people[0], name="Arena", format="arena", length=1, late_entries=True,
                                   options={"minutes": 30})
    for p in people[:2]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    assert tournament_detail(tournament(t.pk), people[2])["you"]["canEnter"]
    services.tournament_enter(tournament_id=t.pk, player=people[2])
    event = load(tournament(t.pk).state)
    assert people[2].pk in event.players and people[2].pk in event.waiting
