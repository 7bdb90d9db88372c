"""The round deadline: the periodic job, run as the workers run it, with the clock moved
forward; a player who never came loses, both absent is a double forfeit."""

from datetime import timedelta

import pytest

from games import clock, services, tasks
from games.models import Match, TournamentMatch
from games.tournament import load
from tests.tournament_site.conftest import tournament, tournament_matches


def started(people, n=2, hours=2):
    t = services.tournament_create(by=people[0], name="Scheduled", format="knockout", length=3,
                                   options={"seeding": "given"}, round_deadline_hours=hours)
    for p in people[:n]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    return t


@pytest.fixture
def duel(people):
    """A knock-out of two with a 2-hour round deadline, drawn: its one match, begun."""
    t = started(people)
    (match,) = tournament_matches(t.pk)
    return t, match


def deadline_of(match):
    return TournamentMatch.objects.get(match=match).deadline


def act_once(match):
    """The player on roll plays their first move (they came)."""
    game = match.games.get()
    state = game.game_state()
    player = match.white if state.actor == "white" else match.black
    services.game_move(game_id=game.pk, player=player, moves=state.legal_plays()[0].to_list())
    return player


def run_deadlines_at(moment):
    with clock.freeze(moment):
        return tasks.run_periodic(now=moment.timestamp()).get("tournament_deadlines")


def test_the_player_who_never_came_loses_at_the_deadline(duel):
    t, match = duel
    mover = act_once(match)
    assert run_deadlines_at(deadline_of(match) - timedelta(minutes=5)) == 0  # not yet
    assert run_deadlines_at(deadline_of(match) + timedelta(seconds=31)) == 1
    match.refresh_from_db()
    assert (match.status, match.winner_id, match.end_reason) == (Match.FINISHED, mover.pk, "no_show")
    done = tournament(t.pk)
    assert done.winner_id == mover.pk
    assert load(done.state).records[0].result.kind == "forfeit"


def test_both_absent_is_a_double_forfeit(people):
    t = started(people, n=4)
    first, second = tournament_matches(t.pk)
    act_once(second)
    run_deadlines_at(deadline_of(first) + timedelta(minutes=1))
    first.refresh_from_db()
    assert first.status == Match.ABORTED and first.winner_id is None
    event = load(tournament(t.pk).state)
    assert event.results["M-R1-1"].result.kind == "double_forfeit"
    assert len(tournament_matches(t.pk)) == 2  # no match replays a double forfeit


def test_a_player_who_only_wrote_in_the_chat_came(duel):
    _, match = duel
    waiting = match.black if match.games.get().game_state().actor == "white" else match.white
    services.chat_post(match_id=match.pk, player=waiting, text="ready when you are")
    run_deadlines_at(deadline_of(match) + timedelta(seconds=5))
    match.refresh_from_db()
    assert (match.status, match.winner_id, match.end_reason) == (Match.FINISHED, waiting.pk, "no_show")


def test_a_match_both_came_to_goes_on_past_the_deadline(duel):
    _, match = duel
    act_once(match)
    game = match.games.get()
    state = game.game_state()
    player = match.white if state.actor == "white" else match.black
    if state.phase == "turn":
        services.game_roll(game_id=game.pk, player=player)
        state = match.games.get().game_state()
    services.game_move(game_id=game.pk, player=player, moves=state.legal_plays()[0].to_list())
    run_deadlines_at(deadline_of(match) + timedelta(hours=1))
    match.refresh_from_db()
    assert match.status == Match.PLAYING
