"""A director's actions through the services: pause and resume, withdraw, disqualify, award a
match, re-pair a Swiss round not yet started; each logged; each refused with a stable code and
nothing changed for a player who is not a director or for bad input."""

from datetime import timedelta

import pytest

from games import clock, services
from games.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError
from games.models import DirectorAction, Entry, Match, Tournament, TournamentMatch
from games.selectors.tournaments import is_director, tournament_detail
from games.tournament import load
from tests.tournament_site.conftest import tournament, tournament_matches
from tests.tournament_site.test_deadlines import act_once, run_deadlines_at


def event(people, n=4, format="knockout", **kwargs):
    t = services.tournament_create(by=people[0], name="Club night", format=format, length=3,
                                   options={"seeding": "given"}, **kwargs)
    for p in people[:n]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk, by=people[0])
    return t


def snapshot(t):
    """What a refused action must leave as it was."""
    row = tournament(t.pk)
    return (row.version, row.state, row.paused_at, list(Entry.objects.filter(tournament=t).values_list("status", flat=True)),
            list(TournamentMatch.objects.filter(tournament=t).values_list("pk", "replaced", "match__status")),
            DirectorAction.objects.filter(tournament=t).count())


def refused(t, error, code, fn, **kwargs):
    before = snapshot(t)
    with pytest.raises(error) as exc:
        fn(**kwargs)
    assert exc.value.code == code
    assert snapshot(t) == before


def test_the_creator_and_staff_are_directors_and_a_player_is_not(people):
    t = services.tournament_create(by=people[0], name="Mine", format="knockout")
    assert is_director(t, people[0]) and not is_director(t, people[1]) and not is_director(t, None)
    people[2].user.is_staff = True
    people[2].user.save()
    assert is_director(t, people[2])


def test_pause_holds_new_matches_and_deadlines_and_resume_moves_the_deadlines_on(people):
    t = event(people, 4, round_deadline_hours=2)
    ann_dee, bob_cy = tournament_matches(t.pk)
    start = clock.now()
    services.tournament_pause(tournament_id=t.pk, by=people[0], reason="server move", now=start)
    services.match_leave(match_id=ann_dee.pk, player=people[3])
    services.match_leave(match_id=bob_cy.pk, player=people[1])
    assert len(tournament_matches(t.pk)) == 2  # the final waits for the resume
    assert load(tournament(t.pk).state).pending()[0].key  # though its pairing is known
    services.tournament_resume(tournament_id=t.pk, by=people[0], now=start + timedelta(hours=1))
    final = tournament_matches(t.pk)[-1]
    assert (final.white_id, final.black_id, final.status) == (people[0].pk, people[2].pk, Match.PLAYING)
    assert [a["action"] for a in tournament_detail(tournament(t.pk))["log"]] == ["pause", "resume"]
    assert tournament_detail(tournament(t.pk))["log"][0]["reason"] == "server move"


def test_no_one_forfeits_at_a_deadline_while_paused_and_the_deadline_moves_by_the_pause(people):
    t = event(people, 2, round_deadline_hours=2)
    (match,) = tournament_matches(t.pk)
    link = TournamentMatch.objects.get(match=match)
    start = clock.now()
    services.tournament_pause(tournament_id=t.pk, by=people[0], now=start)
    assert run_deadlines_at(link.deadline + timedelta(minutes=1)) == 0
    services.tournament_resume(tournament_id=t.pk, by=people[0], now=start + timedelta(hours=3))
    moved = TournamentMatch.objects.get(pk=link.pk).deadline
    assert moved == link.deadline + timedelta(hours=3)
    assert run_deadlines_at(moved - timedelta(minutes=1)) == 0
    assert run_deadlines_at(moved + timedelta(minutes=1)) == 1


def test_a_director_disqualifies_a_player_their_match_is_forfeited_and_they_cannot_enter_again(people):
    t = event(people, 4)
    services.tournament_disqualify(tournament_id=t.pk, player_id=people[1].pk, by=people[0], reason="abuse")
    bob_cy = tournament_matches(t.pk)[1]
    assert (bob_cy.status, bob_cy.winner_id, bob_cy.end_reason) == (Match.FINISHED, people[2].pk, "disqualified")
    assert Entry.objects.get(tournament=t, player=people[1]).status == Entry.DISQUALIFIED
    assert people[1].pk in load(tournament(t.pk).state).withdrawn
    (action,) = tournament_detail(tournament(t.pk))["log"]
    assert (action["action"], action["player"]["id"], action["reason"]) == ("disqualify", people[1].pk, "abuse")


def test_a_director_withdraws_a_player_logged(people):
    t = event(people, 4)
    services.tournament_director_withdraw(tournament_id=t.pk, player_id=people[2].pk, by=people[0])
    assert Entry.objects.get(tournament=t, player=people[2]).status == Entry.WITHDRAWN
    assert tournament_matches(t.pk)[1].winner_id == people[1].pk
    assert DirectorAction.objects.get(tournament=t).action == DirectorAction.WITHDRAW


def test_award_a_match_being_played_ends_it_and_files_an_awarded_result(people):
    t = event(people, 4)
    services.tournament_award(tournament_id=t.pk, key="M-R1-2", winner_id=people[2].pk, by=people[0])
    bob_cy = tournament_matches(t.pk)[1]
    assert (bob_cy.status, bob_cy.winner_id, bob_cy.end_reason) == (Match.FINISHED, people[2].pk, "awarded")
    result = load(tournament(t.pk).state).results["M-R1-2"].result
    assert (result.kind, result.winner) == ("awarded", people[2].pk)
    assert DirectorAction.objects.get(tournament=t).key == "M-R1-2"


def test_award_a_pairing_held_by_a_pause_files_it_without_a_match(people):
    t = event(people, 4)
    ann_dee, bob_cy = tournament_matches(t.pk)
    services.tournament_pause(tournament_id=t.pk, by=people[0])
    services.match_leave(match_id=ann_dee.pk, player=people[3])
    services.match_leave(match_id=bob_cy.pk, player=people[1])
    final = load(tournament(t.pk).state).pending()[0]
    services.tournament_award(tournament_id=t.pk, key=final.key, winner_id=people[2].pk, by=people[0])
    done = tournament(t.pk)
    assert (done.status, done.winner_id) == (Tournament.FINISHED, people[2].pk)
    assert len(tournament_matches(t.pk)) == 2  # no match was made for the final


def swiss(people, n=5):
    return event(people, n, format="swiss", late_entries=True)


def test_repair_a_swiss_round_not_started_pairs_it_again_with_a_late_entrant(people):
    t = swiss(people, 5)
    first = {m.pk for m in tournament_matches(t.pk)}
    services.tournament_enter(tournament_id=t.pk, player=people[5])  # late: from the next round on
    services.tournament_repair(tournament_id=t.pk, by=people[0], reason="fay came late")
    now = tournament_matches(t.pk)
    assert not first & {m.pk for m in now}
    assert all(TournamentMatch.objects.get(match_id=pk).replaced for pk in first)
    assert all(Match.objects.get(pk=pk).status == Match.ABORTED for pk in first)
    paired = {p for m in now for p in (m.white_id, m.black_id)}
    assert paired == {p.pk for p in people}  # six: no bye, the late entrant paired
    assert DirectorAction.objects.get(tournament=t).action == DirectorAction.REPAIR


def test_repair_is_refused_once_a_match_of_the_round_has_started(people):
    t = swiss(people, 4)
    act_once(tournament_matches(t.pk)[0])
    refused(t, Conflict, "round_started", services.tournament_repair, tournament_id=t.pk, by=people[0])


def test_repair_is_refused_for_a_knockout(people):
    t = event(people, 4)
    refused(t, Conflict, "cannot_repair", services.tournament_repair, tournament_id=t.pk, by=people[0])


@pytest.mark.parametrize("action", ["pause", "award", "disqualify", "withdraw", "repair"])
def test_a_player_who_is_not_a_director_is_refused_and_nothing_changes(people, action):
    t = swiss(people, 4)
    calls = {
        "pause": (services.tournament_pause, {}),
        "award": (services.tournament_award, {"key": "R1-1", "winner_id": people[0].pk}),
        "disqualify": (services.tournament_disqualify, {"player_id": people[2].pk}),
        "withdraw": (services.tournament_director_withdraw, {"player_id": people[2].pk}),
        "repair": (services.tournament_repair, {}),
    }
    fn, kwargs = calls[action]
    refused(t, Forbidden, "not_a_director", fn, tournament_id=t.pk, by=people[1], **kwargs)


@pytest.mark.parametrize("call, error, code", [
    (lambda t, p: services.tournament_award(tournament_id=t.pk, key="R9-9", winner_id=p[0].pk, by=p[0]),
     Conflict, "not_pending"),
    (lambda t, p: services.tournament_award(tournament_id=t.pk, key="R1-1", winner_id=p[5].pk, by=p[0]),
     BadRequest, "bad_winner"),
    (lambda t, p: services.tournament_award(tournament_id=t.pk, key=None, winner_id=p[0].pk, by=p[0]),
     BadRequest, "bad_key"),
    (lambda t, p: services.tournament_resume(tournament_id=t.pk, by=p[0]), Conflict, "not_paused"),
    (lambda t, p: services.tournament_disqualify(tournament_id=t.pk, player_id="x", by=p[0]),
     NotFound, "player_not_found"),
    (lambda t, p: services.tournament_disqualify(tournament_id=t.pk, player_id=p[5].pk, by=p[0]),
     Conflict, "not_entered"),
    (lambda t, p: services.tournament_pause(tournament_id=t.pk, by=p[0], reason="x" * 201), BadRequest, "bad_reason"),
    (lambda t, p: services.tournament_pause(tournament_id="nope", by=p[0]), NotFound, "tournament_not_found"),
])
def test_bad_input_gets_a_stable_code_and_changes_nothing(people, call, error, code):
    t = swiss(people, 4)
    before = snapshot(t)
    with pytest.raises(ServiceError) as exc:
        call(t, people)
    assert (type(exc.value), exc.value.code) == (error, code)
    assert snapshot(t) == before


def test_pausing_twice_is_refused(people):
    t = swiss(people, 4)
    services.tournament_pause(tournament_id=t.pk, by=people[0])
    refused(t, Conflict, "already_paused", services.tournament_pause, tournament_id=t.pk, by=people[0])


def test_a_paused_tournament_is_not_started_by_its_start_time(people):
    start = clock.now() + timedelta(hours=1)
    t = services.tournament_create(by=people[0], name="Held", format="knockout", starts_at=start)
    for p in people[:2]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_pause(tournament_id=t.pk, by=people[0])
    assert services.tournament_start_due(now=start) == 0 and tournament(t.pk).status == Tournament.REGISTERING
    services.tournament_resume(tournament_id=t.pk, by=people[0])
    assert services.tournament_start_due(now=start) == 1 and tournament(t.pk).status == Tournament.RUNNING
