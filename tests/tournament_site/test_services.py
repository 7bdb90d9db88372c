"""Tournaments through the services: the draw, each pairing's match, results filed as the
matches end, withdrawals, an aborted match played again, refusals."""

import pytest

from games import services
from games.errors import Conflict, Forbidden
from games.models import Entry, Match, Tournament, TournamentMatch
from games.tournament import load
from tests.tournament_site.conftest import playing, run_bots, tournament, tournament_matches


def knockout(people, n, **kwargs):
    t = services.tournament_create(by=people[0], name="Tuesday KO", format="knockout", length=3,
                                   options={"seeding": "given"}, **kwargs)
    for p in people[:n]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    return t


def test_the_draw_creates_each_first_round_match_between_its_two_players(people):
    t = knockout(people, 4)
    services.tournament_start(tournament_id=t.pk, by=people[0])
    matches = tournament_matches(t.pk)
    assert [(m.white.display_name, m.black.display_name, m.length, m.status) for m in matches] == [
        ("ann", "dee", 3, Match.PLAYING), ("bob", "cy", 3, Match.PLAYING)]
    assert matches[0].games.count() == 1  # the first game is open, its opening rolled
    assert tournament(t.pk).status == Tournament.RUNNING


def test_a_finished_match_files_its_result_and_the_next_round_starts_at_once(people):
    t = knockout(people, 4)
    services.tournament_start(tournament_id=t.pk)
    ann_dee, bob_cy = tournament_matches(t.pk)
    services.match_leave(match_id=ann_dee.pk, player=people[3])  # dee leaves: ann wins
    assert len(tournament_matches(t.pk)) == 2  # the final waits for bob v cy
    services.match_leave(match_id=bob_cy.pk, player=people[1])  # bob leaves: cy wins
    final = tournament_matches(t.pk)[-1]
    assert (final.white_id, final.black_id, final.status) == (people[0].pk, people[2].pk, Match.PLAYING)
    assert TournamentMatch.objects.get(match=final).label == "Final"
    services.match_leave(match_id=final.pk, player=people[2])
    done = tournament(t.pk)
    assert (done.status, done.winner_id) == (Tournament.FINISHED, people[0].pk)
    event = load(done.state)
    assert [r.result.kind for r in event.records] == ["forfeit", "forfeit", "forfeit"]
    assert event.standings()[0].player == people[0].pk


def test_a_withdrawal_mid_event_forfeits_the_running_match_to_the_opponent(people):
    t = knockout(people, 4)
    services.tournament_start(tournament_id=t.pk)
    services.tournament_withdraw(tournament_id=t.pk, player=people[1])  # bob, playing cy
    bob_cy = tournament_matches(t.pk)[1]
    assert (bob_cy.status, bob_cy.winner_id, bob_cy.end_reason) == (Match.FINISHED, people[2].pk, "withdrawn")
    event = load(tournament(t.pk).state)
    assert people[1].pk in event.withdrawn
    assert event.results["M-R1-2"].result.kind == "forfeit"
    assert Entry.objects.get(tournament=t, player=people[1]).status == Entry.WITHDRAWN


def test_an_aborted_tournament_match_is_played_again(people):
    t = knockout(people, 2)
    services.tournament_start(tournament_id=t.pk)
    (first,) = tournament_matches(t.pk)
    services.match_abort(match_id=first.pk)
    (again,) = tournament_matches(t.pk)
    assert again.pk != first.pk and again.status == Match.PLAYING
    assert {again.white_id, again.black_id} == {people[0].pk, people[1].pk}
    assert TournamentMatch.objects.get(match=first).replaced


def test_refusals_have_stable_codes_and_change_nothing(people):
    t = knockout(people, 1)
    with pytest.raises(Conflict) as exc:
        services.tournament_enter(tournament_id=t.pk, player=people[0])
    assert exc.value.code == "already_entered"
    with pytest.raises(Forbidden) as exc:
        services.tournament_start(tournament_id=t.pk, by=people[1])
    assert exc.value.code == "not_a_director"
    with pytest.raises(Conflict) as exc:
        services.tournament_start(tournament_id=t.pk)
    assert exc.value.code == "too_few_entrants"
    assert tournament(t.pk).status == Tournament.REGISTERING and not tournament_matches(t.pk)
    services.tournament_enter(tournament_id=t.pk, player=people[1])
    services.tournament_start(tournament_id=t.pk)
    with pytest.raises(Conflict) as exc:
        services.tournament_enter(tournament_id=t.pk, player=people[2])
    assert exc.value.code == "registration_closed"
    with pytest.raises(Conflict) as exc:
        services.tournament_withdraw(tournament_id=t.pk, player=people[2])
    assert exc.value.code == "not_entered"
    full = services.tournament_create(by=people[0], name="Two", format="swiss", length=1, max_entrants=2)
    for p in people[:2]:
        services.tournament_enter(tournament_id=full.pk, player=p)
    assert services.tournament_enter(tournament_id=full.pk, player=people[2]).status == Entry.WAITING  # a waiting list
    with pytest.raises(Conflict) as exc:
        services.tournament_enter(tournament_id=full.pk, player=people[2])
    assert exc.value.code == "already_entered"


@pytest.mark.parametrize("fields, code", [
    ({"format": "ladder"}, "bad_format"),
    ({"length": 0}, "bad_length"),
    ({"name": " "}, "bad_name"),
    ({"options": {"rounds": 0}, "format": "swiss"}, "bad_option"),
    ({"options": {"consolation": "maybe"}}, "bad_option"),
    ({"round_deadline_hours": -1}, "bad_deadline"),
])
def test_a_bad_tournament_is_refused(people, fields, code):
    from games.errors import BadRequest

    args = {"by": people[0], "name": "x", "format": "knockout", "length": 3, **fields}
    with pytest.raises(BadRequest) as exc:
        services.tournament_create(**args)
    assert exc.value.code == code
    assert not Tournament.objects.exists()


def test_a_swiss_of_five_house_bots_pairs_each_round_as_the_last_one_ends(db):
    t = services.tournament_create(by=None, name="Swiss", format="swiss", length=1, options={"rounds": 3})
    services.tournament_add_bots(tournament_id=t.pk, level="random", count=5)
    services.tournament_start(tournament_id=t.pk)
    run_bots(t.pk)
    done = tournament(t.pk)
    event = load(done.state)
    assert done.status == Tournament.FINISHED and event.is_over
    assert len(tournament_matches(t.pk)) == 6  # 2 tables a round, 3 rounds (the byes have no match)
    assert sum(1 for r in event.records if r.result.kind == "bye") == 3
