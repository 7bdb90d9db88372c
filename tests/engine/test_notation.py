"""Standard notation from the mover's point of view: format, parse, round trips."""

import pytest

from games.engine import BLACK, IllegalPlay, NotationError, Position, Step, check_play, legal_plays
from games.engine.notation import format_play, parse_chains, parse_play


def test_examples_of_seed_003():
    start = Position.initial()
    assert format_play(start, [Step(24, 18), Step(13, 11)]) == "24/18 13/11"
    assert format_play(start, [Step(13, 9), Step(13, 9), Step(24, 20), Step(24, 20)]) == "24/20(2) 13/9(2)"
    assert format_play(start, [Step(24, 18), Step(18, 13)]) == "24/13"


def test_black_is_written_from_its_own_side():
    black = Position.initial(BLACK)
    # Black's 24-point is absolute 1, its 13-point absolute 12.
    assert format_play(black, [Step(1, 7), Step(12, 17)]) == "24/18 13/8"
    play = parse_play(black, (6, 5), "24/18 13/8")
    assert set(play.steps) == {Step(1, 7), Step(12, 17)}


def test_hits_bar_and_off():
    board = [0] * 25
    board[22] = -1  # a Black blot on White's 22
    board[20] = -1
    board[6] = 13
    board[3] = 1
    board[1] = -13
    pos = Position(tuple(board), 1, 0, 0, 0, "white")
    pos.validate()
    assert format_play(pos, [Step("bar", 22), Step(22, 20)]) == "bar/22*/20*"
    assert format_play(pos, [Step("bar", 22), Step(6, 4)]) == "bar/22* 6/4"
    home = Position(tuple([0, 0, 0, 0, 0, 0, 2] + [0] * 17 + [-2]), 0, 0, 13, 13, "white")
    assert format_play(home, [Step(6, "off"), Step(6, "off")]) == "6/off(2)"


def test_parse_chains_reads_counts_hits_bar_and_off():
    assert parse_chains("13/9(2) bar/22* 6/off") == [
        ([13, 9], [False, False]),
        ([13, 9], [False, False]),
        ([25, 22], [False, True]),
        ([6, 0], [False, False]),
    ]
    assert parse_chains("1/5*/9*") == [([1, 5, 9], [False, True, True])]


@pytest.mark.parametrize("text", ["13", "13/x", "off/3", "3/bar", "*13/9", "13/9(5)", "13/9/", "x" * 201, 42,
                                  "8/\u2075", "\u00b9\u00b3/9", "8/\uff15", "8/\u0665"])  # ⁵, ¹³, ５, ٥: ASCII digits only
def test_unreadable_notation_is_refused(text):
    with pytest.raises(NotationError) as err:
        parse_chains(text)
    assert err.value.code == "bad_notation"


def test_parse_play_refuses_illegal_and_backward_moves():
    start = Position.initial()
    with pytest.raises(IllegalPlay):
        parse_play(start, (6, 5), "13/7 13/7")
    with pytest.raises(NotationError):
        parse_play(start, (6, 5), "7/13 8/13")
    with pytest.raises(IllegalPlay) as err:
        parse_play(start, (6, 5), "13/8* 13/7")
    assert err.value.code == "no_blot"
    with pytest.raises(IllegalPlay) as err:
        parse_play(start, (6, 5), "")
    assert err.value.code == "must_move"


def test_every_reference_play_round_trips_through_notation(reference_positions):
    for line, pos, dice in reference_positions:
        for play in legal_plays(pos, dice):
            text = format_play(pos, play)
            assert parse_play(pos, dice, text).result == play.result, (line["id"], text)


def test_compound_and_split_writings_are_the_same_play():
    start = Position.initial()
    a = parse_play(start, (6, 5), "24/13")
    b = parse_play(start, (6, 5), "24/18 18/13")
    c = check_play(start, (6, 5), [Step(24, 19 - 1), Step(18, 13)])
    assert a.result == b.result == c.result
