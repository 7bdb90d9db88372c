"""Correspondence matches through the services: days per move, the bank in days, the server's
forced plays, the claim on time and the award after the grace period (time moved with
clock.freeze, never slept). docs/CORRESPONDENCE.md."""

from datetime import timedelta

import pytest

from games import clock, services
from games.dice import ScriptedDice
from games.engine import MOVE, GameState
from games.models import Game, Match
from games.selectors.games import game_snapshot

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
OPENING_PLAY = [{"from": 8, "to": 5}, {"from": 6, "to": 5}]  # White's 3-1


@pytest.mark.parametrize("options, code", [
    ({"corr_days": 4}, "bad_clock"),
    ({"corr_days": "2"}, "bad_clock"),
    ({"corr_days": 2, "corr_bank_days": 31}, "bad_clock"),
    ({"corr_bank_days": 3}, "bad_clock"),
    ({"corr_days": 2, "clock_delay": 10}, "bad_clock"),
])
def test_bad_correspondence_options_are_refused_and_change_nothing(players, options, code):
    before = Match.objects.count()
    with pytest.raises(ValueError) as err:
        services.match_create(creator=players[0], length=3, **options)
    assert err.value.code == code
    assert Match.objects.count() == before


def test_days_per_move_then_the_bank(make_table, settings):
    settings.GAMES_CORR_GRACE = 3600
    start = clock.now()
    with clock.freeze(start):
        t = make_table(length=3, opening=(3, 1), corr_days=2, corr_bank_days=3)
    game, match = t.game, t.match
    assert (match.white_bank_ms, match.black_bank_ms) == (3 * 86_400_000,) * 2  # days for the match, not per point
    assert game.clock_color == "white" and game.clock_deadline == start + 5 * DAY
    snap = game_snapshot(game, "white")["clock"]
    assert snap["correspondence"] == {"daysPerMove": 2, "bankDays": 3,
                                      "awardAt": (start + 5 * DAY + timedelta(hours=1)).isoformat()}
    assert snap["delay"] == 2 * 86_400

    # White moves after a day and a half: inside the days per move, the bank is untouched.
    with clock.freeze(start + timedelta(hours=36)), services.use_dice(ScriptedDice([(6, 5)])):
        t.do("move", "white", moves=OPENING_PLAY)
    assert t.match.white_bank_ms == 3 * 86_400_000
    game = t.game
    assert game.clock_color == "black" and game.clock_deadline == start + timedelta(hours=36) + 5 * DAY

    # Black (who may double: no automatic roll) takes three days to roll: a day off the bank.
    with clock.freeze(start + timedelta(hours=36) + 3 * DAY):
        t.do("roll", "black")
        t.play()
    assert t.match.black_bank_ms == 2 * 86_400_000


def test_the_opponent_claims_once_the_time_ran_out(make_table, settings):
    settings.GAMES_CORR_GRACE = 86_400
    start = clock.now()
    with clock.freeze(start):
        t = make_table(length=3, opening=(3, 1), corr_days=1, corr_bank_days=1)
    deadline = t.game.clock_deadline
    assert deadline == start + 2 * DAY
    with clock.freeze(deadline - timedelta(minutes=1)):
        with pytest.raises(ValueError) as err:
            services.match_claim(match_id=t.match_id, player=t.black)
        assert err.value.code == "not_timed_out"
        with pytest.raises(ValueError) as err:  # the player on the clock has nothing to claim
            services.match_claim(match_id=t.match_id, player=t.white)
        assert err.value.code == "not_timed_out"
    with clock.freeze(deadline + timedelta(minutes=1)):
        assert services.sweep()["timeouts"] == 0  # within the grace period nothing is awarded
        services.match_claim(match_id=t.match_id, player=t.black)
    match = t.match
    assert match.status == Match.FINISHED and match.winner_id == t.black.pk and match.end_reason == "timeout"


def test_a_late_player_may_still_move_in_the_grace_period_then_it_is_awarded(make_table, settings):
    settings.GAMES_CORR_GRACE = 86_400
    start = clock.now()
    with clock.freeze(start):
        t = make_table(length=3, opening=(3, 1), corr_days=1, corr_bank_days=1)
    deadline = t.game.clock_deadline
    # White moves three hours late: the bank is spent, Black's clock runs with its own time.
    with clock.freeze(deadline + timedelta(hours=3)), services.use_dice(ScriptedDice([(6, 5)])):
        t.do("move", "white", moves=OPENING_PLAY)
    assert t.match.white_bank_ms == 0 and t.match.status == Match.PLAYING
    black_deadline = t.game.clock_deadline
    assert black_deadline == deadline + timedelta(hours=3) + 2 * DAY
    # Black never comes back: the sweep awards the match a grace period after the deadline.
    with clock.freeze(black_deadline + DAY - timedelta(seconds=1)):
        assert services.sweep()["timeouts"] == 0
    with clock.freeze(black_deadline + DAY):
        assert services.sweep()["timeouts"] == 1
    match = t.match
    assert match.winner_id == t.white.pk and match.end_reason == "timeout"


def test_correspondence_players_are_not_forfeited_for_being_away(make_table, settings):
    settings.GAMES_ABANDON_AFTER = 60
    t = make_table(length=3, opening=(3, 1), corr_days=3)
    services.presence_join(match_id=t.match_id, channel_name="c1", player=t.white, role="white")
    services.presence_leave(channel_name="c1")
    with clock.freeze(clock.now() + timedelta(hours=5)):
        assert services.sweep() == {"timeouts": 0, "abandoned": 0}
        with pytest.raises(ValueError) as err:  # no claim on absence either: only on time
            services.match_claim(match_id=t.match_id, player=t.black)
    assert err.value.code == "not_timed_out"
    assert t.match.status == Match.PLAYING


def _dance_position(game):
    """White to play 6-5; Black on the bar against White's closed home board."""
    state = game.game_state().to_dict()
    board = [0] * 25
    for point in range(1, 7):
        board[point] = 2
    board[13] = 3
    board[19], board[20], board[21], board[22], board[23], board[24] = -4, -2, -2, -2, -2, -2
    state["position"] = {"board": board, "whiteBar": 0, "blackBar": 1, "whiteOff": 0, "blackOff": 0,
                         "turn": "white"}
    state["phase"], state["dice"] = MOVE, [6, 5]
    game.state = state
    game.save(update_fields=["state"])


def test_rolls_and_forced_plays_are_played_by_the_server(make_table):
    start = clock.now()
    with clock.freeze(start):
        t = make_table(length=3, opening=(3, 1), corr_days=1, cube=False)
    _dance_position(t.game)
    before = t.game.version
    later = start + timedelta(hours=2)
    with clock.freeze(later), services.use_dice(ScriptedDice([(3, 4), (6, 5)])):
        t.do("move", "white", moves=[{"from": 13, "to": 7}, {"from": 13, "to": 8}])
    game = t.game
    events = list(game.events.filter(version__gt=before).order_by("version").values_list("type", "payload"))
    assert [kind for kind, _ in events] == ["move", "roll", "move", "roll"]
    assert events[2][1]["color"] == "black" and events[2][1]["moves"] == [] and events[2][1]["auto"] is True
    state = game.game_state()
    assert state.phase == MOVE and state.actor == "white" and state.dice == (6, 5)
    assert game.clock_color == "white" and game.clock_deadline == later + DAY
    assert GameState.from_dict(game.state) == state


def test_a_live_match_leaves_forced_plays_to_the_player(make_table):
    t = make_table(length=3, opening=(3, 1), cube=False)
    _dance_position(t.game)
    with services.use_dice(ScriptedDice([(3, 4)])):
        t.do("move", "white", moves=[{"from": 13, "to": 7}, {"from": 13, "to": 8}])
    state = t.state
    assert state.actor == "black" and state.phase == MOVE and len(state.legal_plays()) == 1


def test_the_sweep_reads_ranges_of_the_deadline_index(make_table, settings, django_assert_max_num_queries):
    from django.db import connection

    from games.services.sweeps import due_clocks

    settings.GAMES_CORR_GRACE = 3600
    start = clock.now()
    with clock.freeze(start):
        live = make_table(length=3, opening=(3, 1), clock_delay=5, clock_bank=10)
        corr = make_table(length=3, opening=(3, 1), corr_days=1)
    live_game, corr_game = live.game.pk, corr.game.pk
    with django_assert_max_num_queries(3):  # two index ranges, then the recent ones' matches by key
        assert due_clocks(start + timedelta(minutes=5)) == [live_game]
    assert due_clocks(start + DAY + timedelta(minutes=61)) == [live_game, corr_game]
    names = {idx["columns"][0] for idx in connection.introspection.get_constraints(
        connection.cursor(), Game._meta.db_table).values() if idx["index"] and idx["columns"]}
    assert "clock_deadline" in names
