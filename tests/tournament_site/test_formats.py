"""Every format on the site with house bots, through the real path: the draw, each
pairing's match, the bots' turns through the workers' task, results filed, the end. The
arena pairs whoever is back at once and closes on the clock (its periodic job)."""

from datetime import timedelta

import pytest

from games import clock, services
from games.models import Match, Tournament
from games.tournament import load
from tests.tournament_site.conftest import playing, run_bots, tournament, tournament_matches


@pytest.mark.parametrize("format, count, options, matches", [
    ("double", 4, {}, (6, 7)),  # 3 winners', 2 losers', the grand final (and its reset)
    ("roundrobin", 4, {}, (6, 6)),
    ("groups", 6, {"groupSize": 3, "advance": 1}, (7, 7)),  # two groups of 3, then the final
    ("knockout", 6, {"consolation": "simple"}, (6, 6)),  # 2 byes; the round-1 losers meet
])
def test_each_format_runs_to_the_end_with_house_bots(db, format, count, options, matches):
    t = services.tournament_create(by=None, name=format, format=format, length=1, options=options)
    services.tournament_add_bots(tournament_id=t.pk, level="random", count=count)
    services.tournament_start(tournament_id=t.pk)
    run_bots(t.pk)
    done = tournament(t.pk)
    event = load(done.state)
    assert done.status == Tournament.FINISHED and event.is_over and done.winner_id == event.winner
    played = tournament_matches(t.pk)
    assert matches[0] <= len(played) <= matches[1]
    assert all(m.status == Match.FINISHED for m in played)


def test_an_arena_pairs_again_at_once_and_closes_at_its_end(db):
    start = clock.now()
    t = services.tournament_create(by=None, name="Arena", format="arena", length=1,
                                   options={"minutes": 10, "seeding": "given"})
    bots = services.tournament_add_bots(tournament_id=t.pk, level="random", count=4)
    with clock.freeze(start):
        services.tournament_start(tournament_id=t.pk)
    first, second = playing(t.pk)
    with clock.freeze(start + timedelta(seconds=5)):
        services.match_leave(match_id=first.pk, player=first.black)
        assert len(tournament_matches(t.pk)) == 2  # the two who just met are not paired again at once
        services.match_leave(match_id=second.pk, player=second.black)
    # the two winners are paired again at once; a loss by forfeit pauses the loser (absent)
    again = playing(t.pk)
    assert [(m.white_id, m.black_id) for m in again] == [(first.white_id, second.white_id)]
    assert len(tournament_matches(t.pk)) == 3
    assert set(load(tournament(t.pk).state).paused) == {first.black_id, second.black_id}
    with clock.freeze(start + timedelta(minutes=11)):
        services.tournament_tick()  # the end has passed: nobody is paired any more
        for match in again:  # the matches still running count when they finish
            services.match_leave(match_id=match.pk, player=match.white)
    done = tournament(t.pk)
    event = load(done.state)
    assert done.status == Tournament.FINISHED and len(tournament_matches(t.pk)) == 3
    assert sorted(s.score for s in event.standings()) == [0, 0, 2, 4] and len(bots) == 4
