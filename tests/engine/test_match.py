"""Matches to N points and money sessions (MatchRules / MatchState), checked by hand."""

from __future__ import annotations

import json

import pytest

from games.engine import (
    BLACK,
    OVER,
    TURN,
    WHITE,
    GameResult,
    GameState,
    IllegalAction,
    MatchRules,
    MatchState,
)


def win(color: str, points: int = 1, kind: str = "single", cube: int = 1) -> GameResult:
    return GameResult(color, kind, "bearoff", cube, points)


def record_all(match: MatchState, *results) -> MatchState:
    for r in results:
        match = match.record(r)
        assert MatchState.from_dict(json.loads(json.dumps(match.to_dict()))) == match
    return match


def round_trip(match: MatchState) -> MatchState:
    data = json.loads(json.dumps(match.to_dict()))
    restored = MatchState.from_dict(data)
    assert restored == match and restored.to_dict() == match.to_dict()
    return restored


# -- options -------------------------------------------------------------------------------


def test_one_point_match_has_no_cube_by_default():
    rules = MatchRules(length=1)
    assert rules.cube is False
    assert MatchRules().length == 1 and MatchRules().cube is False
    game = MatchState.new(rules).game_rules()
    assert not game.cube and not game.cube_in_play
    assert MatchRules(length=2).cube is True and MatchRules(length=0).cube is True
    assert MatchRules(length=5, cube=False).cube is False


@pytest.mark.parametrize(
    "options",
    [
        {"jacoby": True},
        {"beaver": True},
        {"beaver": True, "raccoon": True},
        {"auto_doubles": 1},
        {"last_roll": True},
    ],
)
@pytest.mark.parametrize("length", [1, 3, 7])
def test_money_only_options_are_refused_in_a_match(options, length):
    with pytest.raises(IllegalAction) as info:
        MatchRules(length=length, **options)
    assert info.value.code == "money_only_option"
    # ... and allowed in a money session
    money = MatchRules(length=0, **options)
    assert money.is_money


def test_double_backgammon_is_allowed_in_a_match():
    rules = MatchRules(length=5, double_backgammon=True)
    assert MatchState.new(rules).game_rules().double_backgammon


def test_raccoon_needs_beaver():
    with pytest.raises(IllegalAction) as info:
        MatchRules(length=0, raccoon=True)
    assert info.value.code == "raccoon_needs_beaver"
    assert MatchRules(length=0, beaver=True, raccoon=True).raccoon


def test_cube_options_need_the_cube():
    for options in ({"beaver": True}, {"jacoby": True}, {"auto_doubles": 2}):
        with pytest.raises(IllegalAction) as info:
            MatchRules(length=0, cube=False, **options)
        assert info.value.code == "cube_option_without_cube"


@pytest.mark.parametrize("limit", [0, 1, 3, 6, 48, 100, -64, True, 64.0, "64"])
def test_cube_limit_must_be_a_power_of_two(limit):
    with pytest.raises(IllegalAction) as info:
        MatchRules(length=5, cube_limit=limit)
    assert info.value.code == "bad_cube_limit"


@pytest.mark.parametrize("limit", [2, 4, 64, 128, 1024, None])
def test_valid_cube_limits(limit):
    rules = MatchRules(length=5, cube_limit=limit)
    assert MatchState.new(rules).game_rules().cube_limit == limit


@pytest.mark.parametrize("length", [-1, 65, True, "5", 2.0])
def test_bad_lengths(length):
    with pytest.raises(IllegalAction) as info:
        MatchRules(length=length)
    assert info.value.code == "bad_length"


@pytest.mark.parametrize("count", [-1, 7, True])
def test_bad_automatic_double_counts(count):
    with pytest.raises(IllegalAction) as info:
        MatchRules(length=0, auto_doubles=count)
    assert info.value.code == "bad_auto_doubles"


def test_rules_round_trip():
    for rules in (
        MatchRules(),
        MatchRules(length=7, cube_limit=None, crawford=False, double_backgammon=True),
        MatchRules(length=0, jacoby=True, beaver=True, raccoon=True, auto_doubles=3, last_roll=True),
    ):
        assert MatchRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
        game = MatchState.new(rules).game_rules()
        assert (game.cube, game.cube_limit, game.jacoby, game.beaver, game.raccoon) == (
            rules.cube, rules.cube_limit, rules.jacoby, rules.beaver, rules.raccoon,
        )
        assert (game.auto_doubles, game.last_roll, game.double_backgammon) == (
            rules.auto_doubles, rules.last_roll, rules.double_backgammon,
        )


# -- Crawford --------------------------------------------------------------------------------


def test_crawford_game_comes_once_in_a_five_point_match():
    m = MatchState.new(MatchRules(length=5))
    m = record_all(m, win(WHITE, 2, "gammon"), win(BLACK), win(WHITE))  # 3-1
    assert m.score == (3, 1) and not m.is_crawford_game and m.away(WHITE) == 2
    assert m.game_rules().cube_in_play
    m = record_all(m, win(WHITE))  # 4-1: White is one away
    assert m.score == (4, 1) and m.away(WHITE) == 1
    assert m.is_crawford_game and not m.post_crawford
    crawford = m.game_rules()
    assert crawford.crawford_game and crawford.cube and not crawford.cube_in_play
    # the Crawford game: the trailer wins it with a gammon
    m = record_all(m, win(BLACK, 2, "gammon"))  # 4-3
    assert not m.is_crawford_game and m.post_crawford
    assert m.game_rules().cube_in_play and not m.game_rules().crawford_game
    # the trailer reaches 4 too: no second Crawford game
    m = record_all(m, win(BLACK))  # 4-4
    assert m.score == (4, 4) and not m.is_crawford_game and m.post_crawford
    assert m.game_rules().cube_in_play
    m = record_all(m, win(BLACK, 2, cube=2))  # a doubled single: 4-6
    assert m.winner == BLACK and m.is_over and m.score == (4, 6)
    assert m.games_played == 7
    with pytest.raises(IllegalAction) as info:
        m.record(win(WHITE))
    assert info.value.code == "match_over"


def test_the_cube_is_refused_in_the_crawford_game_and_back_after_it():
    m = record_all(MatchState.new(MatchRules(length=3)), win(BLACK, 2, "gammon"))  # 0-2
    assert m.is_crawford_game
    game = _to_turn(GameState.new(m.game_rules()))
    with pytest.raises(IllegalAction) as info:
        game.double(game.actor)
    assert info.value.code == "crawford_game"
    m = record_all(m, win(WHITE))  # 1-2, post-Crawford
    game = _to_turn(GameState.new(m.game_rules()))
    assert game.can_double(game.actor)


def test_reaching_match_point_by_a_jump_starts_the_crawford_game():
    m = record_all(MatchState.new(MatchRules(length=5)), win(BLACK), win(BLACK, 3, "backgammon"))  # 0-4
    assert m.is_crawford_game


def test_two_point_match_first_game_leads_to_crawford():
    m = record_all(MatchState.new(MatchRules(length=2)), win(WHITE))
    assert m.score == (1, 0) and m.is_crawford_game


def test_no_crawford_game_when_the_rule_is_off():
    m = MatchState.new(MatchRules(length=5, crawford=False))
    m = record_all(m, win(WHITE, 4, "gammon", 2))  # 4-0
    assert not m.is_crawford_game and not m.post_crawford
    assert m.game_rules().cube_in_play and not m.game_rules().crawford_game
    m = record_all(m, win(BLACK, 4, "single", 4))
    assert m.score == (4, 4) and not m.is_crawford_game


def test_a_gammon_from_three_to_five_ends_the_match_without_a_crawford_game():
    m = record_all(MatchState.new(MatchRules(length=5)), win(WHITE, 3, "backgammon"))  # 3-0
    assert not m.is_crawford_game
    m = record_all(m, win(WHITE, 2, "gammon"))  # 5-0
    assert m.winner == WHITE and m.score == (5, 0)
    assert not m.is_crawford_game and not m.crawford_done


def test_the_match_is_won_at_n_or_beyond():
    m = record_all(MatchState.new(MatchRules(length=5)), win(BLACK, 2), win(BLACK, 2))  # 0-4
    assert m.is_crawford_game
    m = record_all(m, win(BLACK, 3, "backgammon"))
    assert m.winner == BLACK and m.score == (0, 7)
    exact = record_all(MatchState.new(MatchRules(length=3)), win(WHITE, 3, "backgammon"))
    assert exact.winner == WHITE


def test_money_sessions_never_end_by_score():
    m = MatchState.new(MatchRules(length=0, jacoby=True, beaver=True, raccoon=True, auto_doubles=2, last_roll=True))
    assert m.away(WHITE) is None and m.away(BLACK) is None
    results = [win(WHITE, 64, "gammon", 32), win(BLACK, 1), GameResult(None, "tie", "last_roll", 4, 0)]
    for _ in range(20):
        m = record_all(m, *results)
    assert m.score == (64 * 20, 20) and m.games_played == 60
    assert m.winner is None and not m.is_over and not m.is_crawford_game and not m.post_crawford
    ended = m.forfeit(BLACK)
    assert ended.winner == WHITE
    with pytest.raises(IllegalAction):
        ended.record(win(WHITE))


def test_match_forfeit():
    m = record_all(MatchState.new(MatchRules(length=7)), win(BLACK, 4))
    f = m.forfeit(BLACK)
    assert f.winner == WHITE and f.score == (0, 4)
    round_trip(f)
    with pytest.raises(IllegalAction) as info:
        f.forfeit(WHITE)
    assert info.value.code == "match_over"


def test_to_dict_round_trip_through_a_match():
    m = MatchState.new(MatchRules(length=5, cube_limit=None))
    for r in (win(WHITE), win(WHITE, 3, "backgammon"), win(BLACK), win(BLACK, 2), win(BLACK, 2)):
        m = round_trip(m.record(r))
    data = m.to_dict()
    assert data["score"] == [4, 5] and data["winner"] == BLACK
    assert data["crawfordDone"] is True and data["postCrawford"] is True


# -- a worked 3-point match (seed 003: drop, take, redouble) ------------------------------------


def _to_turn(game: GameState) -> GameState:
    """Roll the opening (White 4, Black 2) and play the first legal play: Black is on roll."""
    game = game.opening_roll(4, 2)
    game = game.move(WHITE, list(game.legal_plays()[0].steps))
    assert game.phase == TURN and game.actor == BLACK
    return game


def _next_turn(game: GameState, dice=(5, 3)) -> GameState:
    color = game.actor
    game = game.roll(color, dice)
    return game.move(color, list(game.legal_plays()[0].steps))


def test_worked_three_point_match():
    m = MatchState.new(MatchRules(length=3))
    assert m.game_rules().cube_in_play

    # Game 1: Black doubles at once, White drops: Black wins the undoubled cube, 1 point.
    g = _to_turn(GameState.new(m.game_rules()))
    g = g.double(BLACK).drop(WHITE)
    assert (g.result.winner, g.result.points) == (BLACK, 1)
    m = m.record(g.result)
    assert m.score == (0, 1) and not m.is_crawford_game

    # Game 2: Black doubles, White takes (cube 2, White's); White redoubles to 4, Black takes;
    # then Black resigns a single game: 1 x 4 = 4 points for White, who needed 3.
    g = _to_turn(GameState.new(m.game_rules()))
    g = g.double(BLACK).take(WHITE)
    assert (g.cube_value, g.cube_owner) == (2, WHITE)
    g = _next_turn(g)  # Black rolls and plays
    g = g.double(WHITE).take(BLACK)
    assert (g.cube_value, g.cube_owner) == (4, BLACK)
    assert g.actor == WHITE  # the doubler still has to roll; Black gives up now
    g = g.offer_resignation(BLACK, 1).accept_resignation(WHITE)
    assert g.phase == OVER and (g.result.winner, g.result.kind, g.result.points) == (WHITE, "single", 4)
    m = m.record(g.result)
    assert m.score == (4, 1) and m.winner == WHITE


def test_worked_three_point_match_with_crawford():
    m = MatchState.new(MatchRules(length=3))

    # Game 1: White doubles on its first turn after Black's, Black drops: 1-0.
    g = _next_turn(_to_turn(GameState.new(m.game_rules())))  # White on roll
    g = g.double(WHITE).drop(BLACK)
    m = m.record(g.result)
    assert m.score == (1, 0) and not m.is_crawford_game

    # Game 2: Black doubles, White takes (2); Black wins a single game: 2 points, 1-2,
    # Black is one away: the next game is the Crawford game.
    g = _to_turn(GameState.new(m.game_rules())).double(BLACK).take(WHITE)
    g = g.roll(BLACK, (6, 6))
    g = g.offer_resignation(WHITE, 1).accept_resignation(BLACK)
    assert (g.result.winner, g.result.points) == (BLACK, 2)
    m = m.record(g.result)
    assert m.score == (1, 2) and m.is_crawford_game

    # Game 3, Crawford: no cube. White wins a gammon: 3-2, and White has won the match.
    g = _to_turn(GameState.new(m.game_rules()))
    assert not g.can_double(BLACK)
    with pytest.raises(IllegalAction):
        g.double(BLACK)
    g = g.offer_resignation(BLACK, 2).accept_resignation(WHITE)
    assert (g.result.kind, g.result.points) == ("gammon", 2)
    m = m.record(g.result)
    assert m.score == (3, 2) and m.winner == WHITE


def test_worked_three_point_match_post_crawford_redouble_and_drop():
    # 1-2 after the Crawford game was played: post-Crawford, cube back.
    m = record_all(MatchState.new(MatchRules(length=3)), win(WHITE), win(BLACK, 2, cube=2))
    assert m.is_crawford_game
    m = record_all(m, GameResult(WHITE, "single", "resign", 1, 1))  # the Crawford game: 2-2
    assert m.score == (2, 2) and m.post_crawford
    # Game 4: White doubles (2, Black's), Black redoubles (4), White drops: Black wins 2 -> 2-4.
    g = _next_turn(_to_turn(GameState.new(m.game_rules())))
    g = g.double(WHITE).take(BLACK)
    g = _next_turn(g)  # White plays
    g = g.double(BLACK).drop(WHITE)
    assert (g.result.winner, g.result.cube_value, g.result.points) == (BLACK, 2, 2)
    m = m.record(g.result)
    assert m.score == (2, 4) and m.winner == BLACK


def test_a_one_point_match_refuses_the_cube():
    with pytest.raises(IllegalAction) as err:
        MatchRules(length=1, cube=True)
    assert err.value.code == "no_cube_in_one_point"
    assert MatchRules(length=1, cube=False).cube is False
