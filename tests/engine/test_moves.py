"""Legal plays against GNU Backgammon's reference data, and play checking with reasons."""

import pytest

from games.engine import BLACK, WHITE, IllegalPlay, InvalidPlay, Position, Step, check_play, legal_move_lists, legal_plays


def _position(points: dict, *, turn=WHITE, white_bar=0, black_bar=0, white_off=None, black_off=None):
    """A position from ``{point: count}`` (+ White, - Black); the rest of each
    side's 15 checkers are borne off unless given."""
    board = [0] * 25
    for p, n in points.items():
        board[p] = n
    whites = sum(n for n in board if n > 0) + white_bar
    blacks = -sum(n for n in board if n < 0) + black_bar
    return Position(
        tuple(board),
        white_bar,
        black_bar,
        15 - whites if white_off is None else white_off,
        15 - blacks if black_off is None else black_off,
        turn,
    )


def _keys(plays):
    return {p.result.key() for p in plays}


# -- the reference data: exactly GNU Backgammon's set of resulting positions ----


def test_every_reference_position_has_gnubgs_play_set(reference_positions):
    wrong = []
    for line, pos, dice in reference_positions:
        want = {play["key"] for play in line["plays"]}
        got = _keys(legal_plays(pos, dice))
        if got != want:
            wrong.append((line["id"], sorted(got - want)[:2], sorted(want - got)[:2]))
    assert not wrong, f"{len(wrong)} positions differ, first: {wrong[:3]}"
    assert len(reference_positions) == 1000


def test_reference_play_counts_and_one_play_per_result(reference_positions):
    for line, pos, dice in reference_positions:
        plays = legal_plays(pos, dice)
        assert len(plays) == line["nplays"], line["id"]
        assert len(_keys(plays)) == len(plays), line["id"]


def test_every_reference_sequence_is_accepted_and_reaches_its_key(reference_positions):
    for line, pos, dice in reference_positions:
        for play in line["plays"]:
            assert check_play(pos, dice, play["moves"]).result.key() == play["key"], line["id"]


def test_every_generated_play_is_accepted_by_the_checker(reference_positions):
    for line, pos, dice in reference_positions:
        for play in legal_plays(pos, dice):
            assert check_play(pos, dice, play.steps).result == play.result, line["id"]


def test_reference_tags_are_covered(reference_lines):
    tags = {t for line in reference_lines for t in line["tags"]}
    for tag in ("bar", "dance", "closed_board", "no_legal_move", "must_play_higher",
                "only_smaller_die", "bearoff_higher_die", "partial_doubles", "game_ending", "hit"):
        assert tag in tags


def test_legal_move_lists_is_the_wire_format(reference_positions):
    line, pos, dice = next(x for x in reference_positions if "bar" in x[0]["tags"])
    lists = legal_move_lists(pos, dice)
    assert all(isinstance(seq, list) for seq in lists)
    step = lists[0][0]
    assert set(step) == {"from", "to"} and step["from"] == "bar"


# -- worked examples ------------------------------------------------------------


def test_opening_31_makes_the_five_point():
    plays = legal_plays(Position.initial(), (3, 1))
    assert len(plays) == 16
    made = check_play(Position.initial(), (1, 3), [{"from": 6, "to": 5}, {"from": 8, "to": 5}])
    assert made.result.board[5] == 2 and made.result.board[8] == 2 and made.result.turn == BLACK


def test_black_moves_upward_and_enters_on_the_die():
    pos = _position({1: -2, 12: -5, 17: -3, 19: -5, 6: 5, 8: 3, 13: 5, 24: 1}, white_off=0, turn=BLACK,
                    black_bar=0)
    pos = Position(pos.board, 1, 0, 0, 0, BLACK)
    play = check_play(pos, (6, 1), [Step(12, 18), Step(17, 18)])
    assert play.result.board[18] == -2 and play.result.turn == WHITE


def test_bar_checker_must_enter_first():
    pos = _position({6: 2, 13: 12, 20: -2, 1: -13}, white_bar=1, white_off=0, black_off=0)
    with pytest.raises(IllegalPlay) as err:
        check_play(pos, (3, 1), [Step(13, 10), Step(13, 12)])
    assert err.value.code == "must_enter_first"
    assert check_play(pos, (3, 1), [Step("bar", 22), Step(13, 12)]).result.white_bar == 0


def test_dance_on_a_closed_board_is_the_only_play():
    pos = _position({p: -2 for p in range(19, 25)} | {6: 14}, white_bar=1, white_off=0, black_off=3)
    plays = legal_plays(pos, (6, 6))
    assert len(plays) == 1 and plays[0].steps == ()
    assert check_play(pos, (6, 6), []).result.turn == BLACK
    with pytest.raises(IllegalPlay) as err:
        check_play(pos, (6, 6), [Step("bar", 19)])
    assert err.value.code == "blocked_point"


def test_cannot_pass_with_a_legal_move():
    with pytest.raises(IllegalPlay) as err:
        check_play(Position.initial(), (6, 5), [])
    assert err.value.code == "must_move"


def test_must_use_both_dice():
    with pytest.raises(IllegalPlay) as err:
        check_play(Position.initial(), (6, 5), [Step(24, 18)])
    assert err.value.code == "must_use_both_dice"


def test_higher_die_rule():
    # White's lone runner on 10: 10/4 (6) then 4/1 (3) is blocked, 10/7 (3) then 7/1 (6)
    # is blocked; the 14 checkers on 23 are stuck (17 and 20 are Black points).
    # Only one die can be played, so it must be the 6.
    pos = _position({10: 1, 23: 14, 1: -2, 17: -2, 20: -2}, white_off=0)
    plays = legal_plays(pos, (6, 3))
    assert [p.steps for p in plays] == [(Step(10, 4),)]
    with pytest.raises(IllegalPlay) as err:
        check_play(pos, (6, 3), [Step(10, 7)])
    assert err.value.code == "must_use_higher_die"


def test_compulsory_order_when_one_die_only_plays_after_the_other():
    # White on 9 with 6-2: 9/3 first leaves the 2 unplayable (3-2=1 blocked), but
    # 9/7/1? 1 is blocked; 9/7 then 7/1 blocked; so play 9/3 only... instead use a
    # runner on 12 with 5-4 where 12/8 then 8/3 works but 12/7 is blocked.
    pos = _position({12: 1, 23: 14, 7: -2, 17: -2, 18: -2, 19: -2}, white_off=0)
    plays = legal_plays(pos, (5, 4))
    assert [p.steps for p in plays] == [(Step(12, 8), Step(8, 3))]
    played = check_play(pos, (5, 4), [Step(8, 3), Step(12, 8)])  # listed out of order
    assert played.steps == (Step(12, 8), Step(8, 3))


def test_smaller_die_first_inside_the_home_board_is_allowed():
    # Seed 003's example: one checker left on the 6-point, 6-1: 6/5 then 5/off is legal.
    pos = _position({6: 1, 3: 1, 24: -1}, white_off=13, black_off=14)
    play = check_play(pos, (6, 1), [Step(6, 5), Step(5, "off")])
    assert play.result.board[6] == 0 and play.result.board[5] == 0 and play.result.white_off == 14


def test_bear_off_with_a_larger_die_only_from_the_highest_point():
    pos = _position({5: 2, 2: 1, 24: -1}, white_off=12, black_off=14)
    with pytest.raises(IllegalPlay) as err:
        check_play(pos, (6, 1), [Step(2, "off"), Step(5, 4)])
    assert err.value.code == "higher_checker_first"
    ok = check_play(pos, (6, 1), [Step(5, "off"), Step(2, 1)])
    assert ok.result.white_off == 13


def test_cannot_bear_off_with_a_checker_outside():
    pos = _position({8: 1, 3: 2, 24: -1}, white_off=12, black_off=14)
    with pytest.raises(IllegalPlay) as err:
        check_play(pos, (3, 1), [Step(3, "off"), Step(8, 7)])
    assert err.value.code == "cannot_bear_off"


def test_any_order_of_the_steps_is_accepted():
    pos = _position({7: 1, 3: 2, 24: -1}, white_off=12, black_off=14)
    play = check_play(pos, (3, 1), [Step(3, "off"), Step(7, 6)])
    assert play.result.white_off == 13 and play.steps[0] == Step(7, 6)


def test_errors_name_the_step_and_reason():
    start = Position.initial()
    cases = [
        ([Step(23, 17), Step(13, 8)], "not_your_checker"),
        ([Step(13, 7), Step(6, 1)], "blocked_point"),
        ([Step(13, 9), Step(13, 8)], "no_matching_die"),
        ([Step(8, 14), Step(6, 1)], "wrong_direction"),
        ([Step("bar", 20)], "not_on_bar"),
        ([Step(6, "off"), Step(13, 8)], "cannot_bear_off"),
        ([Step(13, 7), Step(13, 8), Step(8, 3)], "too_many_steps"),
    ]
    for steps, code in cases:
        with pytest.raises(IllegalPlay) as err:
            check_play(start, (6, 5), steps)
        assert err.value.code == code, (steps, err.value.code)
        assert err.value.message and isinstance(err.value, ValueError)


@pytest.mark.parametrize(
    "steps, code",
    [
        ("nope", "bad_play"),
        ([{"from": 13}], "bad_step"),
        ([{"from": 0, "to": 5}], "bad_step"),
        ([{"from": 25, "to": 5}], "bad_step"),
        ([{"from": "13", "to": 7}], "bad_step"),
        ([{"from": 13, "to": "bar"}], "bad_step"),
        ([{"from": 13, "to": 7}] * 5, "too_many_steps"),
    ],
)
def test_malformed_steps_are_refused(steps, code):
    """Not a play at all: an InvalidPlay (syntax), not an IllegalPlay (rules), as python-chess
    tells an InvalidMoveError from an IllegalMoveError."""
    with pytest.raises(InvalidPlay) as err:
        check_play(Position.initial(), (6, 5), steps)
    assert err.value.code == code and not isinstance(err.value, IllegalPlay)


def test_a_well_formed_play_that_breaks_a_rule_is_illegal_not_invalid():
    with pytest.raises(IllegalPlay) as err:
        check_play(Position.initial(), (6, 5), [{"from": 13, "to": 2}])
    assert err.value.code == "no_matching_die" and not isinstance(err.value, InvalidPlay)


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (1,), "66", (1.0, 2), None])
def test_bad_dice_are_refused(dice):
    with pytest.raises(InvalidPlay) as err:
        legal_plays(Position.initial(), dice)
    assert err.value.code == "bad_dice"


def test_doubles_partial_play_when_blocked():
    # White 6-6 from the start: 24s blocked by Black's 18? No: Black holds 19 (-5) and 17 (-3);
    # 24-6=18 is open, 18-6=12 is Black's 5-stack. 13-6=7 open, 7-6=1 blocked, 8-6=2 open.
    plays = legal_plays(Position.initial(), (6, 6))
    assert all(len(p.steps) == 4 for p in plays)
    assert check_play(Position.initial(), (6, 6), [Step(24, 18)] * 2 + [Step(13, 7)] * 2).result.board[18] == 2


def test_game_ending_play_uses_fewer_dice():
    pos = _position({1: 1, 24: -1}, white_off=14, black_off=14)
    plays = legal_plays(pos, (4, 4))
    assert len(plays) == 1 and plays[0].result.white_off == 15 and len(plays[0].steps) == 1
