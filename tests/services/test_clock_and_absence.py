"""Clocks, claims, the sweep and rematches, through the services (time moved with
clock.freeze, never slept)."""

from datetime import timedelta

import pytest
from django.core.management import call_command

from games import services
from games.dice import ScriptedDice
from games.models import Game, Match
from games.selectors.games import game_snapshot
from games import clock

pytestmark = pytest.mark.django_db


def test_the_clock_runs_for_whoever_must_act_and_drains_after_the_delay(make_table):
    start = clock.now()
    with clock.freeze(start):
        t = make_table(length=3, opening=(3, 1), clock_delay=12, clock_bank=120)
    game, match = t.game, t.match
    assert (match.white_bank_ms, match.black_bank_ms) == (360_000, 360_000)  # 2 min per point
    assert game.clock_color == "white" and game.clock_started_at == start
    assert game.clock_deadline == start + timedelta(seconds=12 + 360)

    # White thinks 20 s: 8 s past the delay come off the bank; Black's clock starts.
    with clock.freeze(start + timedelta(seconds=20)):
        t.do("move", "white", moves=[{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    game, match = t.game, t.match
    assert match.white_bank_ms == 352_000 and match.black_bank_ms == 360_000
    assert game.clock_color == "black"
    snap = game_snapshot(game, "white")["clock"]
    assert snap["running"] == "black" and snap["white"] == 352_000 and snap["delay"] == 12

    # Inside the delay nothing is charged.
    with clock.freeze(start + timedelta(seconds=25)), services.use_dice(ScriptedDice([(6, 5)])):
        t.do("roll", "black")
    assert t.match.black_bank_ms == 360_000


def test_running_out_of_time_loses_the_match(make_table):
    start = clock.now()
    with clock.freeze(start):
        t = make_table(length=3, opening=(3, 1), clock_delay=5, clock_bank=10)
    deadline = t.game.clock_deadline
    assert deadline == start + timedelta(seconds=5 + 30)
    with clock.freeze(deadline - timedelta(seconds=1)):
        assert services.sweep() == {"timeouts": 0, "abandoned": 0}
    # Acting after the deadline is refused and the match is lost on time.
    with clock.freeze(deadline + timedelta(seconds=1)):
        with pytest.raises(ValueError) as err:
            t.do("move", "white", moves=[{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    assert err.value.code == "time_out"
    match = t.match
    assert match.status == Match.FINISHED and match.winner_id == t.black.pk and match.end_reason == "timeout"


def test_the_sweep_forfeits_on_time_without_anyone_acting(make_table):
    start = clock.now()
    with clock.freeze(start):
        t = make_table(length=3, opening=(3, 1), clock_delay=5, clock_bank=10)
    with clock.freeze(start + timedelta(seconds=36)):
        assert services.sweep()["timeouts"] == 1
        assert services.sweep()["timeouts"] == 0  # twice is harmless
    assert t.match.end_reason == "timeout"
    forfeit = t.game.events.get(type="forfeit")
    assert forfeit.payload == {"color": "white", "reason": "timeout", "scored": False}  # a match is awarded


def test_claims_need_an_absent_opponent_and_the_grace_period(make_table, settings):
    settings.GAMES_ABSENCE_GRACE = 60
    t = make_table(length=3, opening=(3, 1))
    services.presence_join(match_id=t.match_id, channel_name="c1", player=t.white, role="white")
    services.presence_join(match_id=t.match_id, channel_name="c2", player=t.black, role="black")
    with pytest.raises(ValueError) as err:
        services.match_claim(match_id=t.match_id, player=t.white)
    assert err.value.code == "opponent_present"
    left = clock.now()
    with clock.freeze(left):
        services.presence_leave(channel_name="c2")
    assert t.match.black_away_since == left
    with clock.freeze(left + timedelta(seconds=59)):
        with pytest.raises(ValueError) as err:
            services.match_claim(match_id=t.match_id, player=t.white)
        assert err.value.code == "too_early"
    with clock.freeze(left + timedelta(seconds=61)):
        services.match_claim(match_id=t.match_id, player=t.white)
    match = t.match
    assert match.winner_id == t.white.pk and match.end_reason == "abandoned"


def test_close_abandoned_command_closes_matches_left_too_long(make_table, settings):
    settings.GAMES_ABANDON_AFTER = 600
    t = make_table(length=3, opening=(3, 1))
    services.presence_join(match_id=t.match_id, channel_name="c1", player=t.white, role="white")
    services.presence_leave(channel_name="c1")
    gone = t.match.white_away_since
    with clock.freeze(gone + timedelta(seconds=599)):
        call_command("close_abandoned")
    assert t.match.status == Match.PLAYING
    with clock.freeze(gone + timedelta(seconds=601)):
        call_command("close_abandoned")
    assert t.match.status == Match.FINISHED and t.match.winner_id == t.black.pk

    # Both players gone: the match is aborted, nobody wins.
    t2 = make_table(length=3, opening=(3, 1))
    for color, name in (("white", "w"), ("black", "b")):
        services.presence_join(match_id=t2.match_id, channel_name=name, player=t2.player(color), role=color)
        services.presence_leave(channel_name=name)
    with clock.freeze(clock.now() + timedelta(seconds=601)):
        services.sweep()
    assert t2.match.status == Match.ABORTED and t2.match.winner_id is None


def test_rematch_offer_and_accept(make_table):
    t = make_table(length=1, opening=(3, 1))
    with pytest.raises(ValueError) as err:
        services.match_rematch(match_id=t.match_id, player=t.white)
    assert err.value.code == "match_not_over"
    t.do("resign", "black")
    offer = services.match_rematch(match_id=t.match_id, player=t.black)
    assert offer.status == Match.OPEN and offer.white_id == t.black.pk and offer.private
    assert (offer.length, offer.cube, offer.rematch_of_id) == (1, False, t.match_id)
    with pytest.raises(ValueError) as err:
        services.match_rematch(match_id=t.match_id, player=t.black)
    assert err.value.code == "rematch_pending"
    with services.use_dice(ScriptedDice([(2,), (5,)])):
        started = services.match_rematch(match_id=t.match_id, player=t.white)
    assert started.pk == offer.pk and started.status == Match.PLAYING
    old_game = Game.objects.filter(match_id=t.match_id).get()
    kinds = [e.type for e in old_game.events.order_by("version")][-2:]
    assert kinds == ["rematch_offer", "rematch_start"]
    assert old_game.events.get(type="rematch_start").payload["game"] == started.games.get().pk
    with pytest.raises(ValueError) as err:
        services.match_rematch(match_id=t.match_id, player=t.white)
    assert err.value.code == "rematch_taken"
