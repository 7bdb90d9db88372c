"""GNU Backgammon Position ID / Match ID against the reference data."""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import gnubgid
from games.engine.errors import IdError
from games.engine.gnubgid import (
    gnubg_id,
    match_from_id,
    match_id,
    parse_gnubg_id,
    position_from_id,
    position_id,
)
from games.engine.position import BLACK, WHITE, Position


@pytest.fixture(scope="module")
def lines(reference_lines):
    return reference_lines


def test_module_doctests():
    result = doctest.testmod(gnubgid)
    assert result.attempted > 0
    assert result.failed == 0


# -- Position ID --------------------------------------------------------------
def test_initial_position_id():
    assert position_id(Position.initial(WHITE)) == "4HPwATDgc/ABMA"
    assert position_id(Position.initial(BLACK)) == "4HPwATDgc/ABMA"


@pytest.mark.parametrize("turn", [WHITE, BLACK])
def test_initial_round_trip(turn):
    pos = Position.initial(turn)
    assert position_from_id(position_id(pos), turn) == pos


def test_all_position_ids_match(lines):
    assert len(lines) == 1000
    bad = [line["id"] for line in lines if position_id(Position.from_dict(line)) != line["posid"]]
    assert bad == []


def test_all_position_ids_round_trip(lines):
    for line in lines:
        pos = Position.from_dict(line)
        assert position_from_id(line["posid"], line["turn"]) == pos, line["id"]


def _data_gnubg_id(line) -> str:
    # The data's Match IDs hold the larger die first; its `dice` field is in roll order.
    dice = tuple(sorted(line["dice"], reverse=True))
    return gnubg_id(
        Position.from_dict(line),
        dice=dice,
        on_roll=line["turn"],
        turn=line["turn"],
        cube_value=1,
        cube_owner=None,
        game_state=1,
        match_length=0,
        score=(0, 0),
    )


def test_all_gnubg_ids_match(lines):
    bad = [(line["id"], _data_gnubg_id(line), line["gnubgid"]) for line in lines if _data_gnubg_id(line) != line["gnubgid"]]
    assert bad == []


def test_all_gnubg_ids_parse(lines):
    for line in lines:
        pos, state = parse_gnubg_id(line["gnubgid"])
        assert pos == Position.from_dict(line), line["id"]
        assert state["on_roll"] == state["turn"] == line["turn"]
        assert sorted(state["dice"]) == sorted(line["dice"])
        assert state["cube_value"] == 1 and state["cube_owner"] is None
        assert state["match_length"] == 0 and state["score"] == (0, 0)
        assert state["game_state"] == 1


def test_player_numbering_from_data(lines):
    """gnubg's player 1 is White, player 0 Black (the on-roll bit is bit 6)."""
    import base64

    for line in lines:
        raw = base64.b64decode(line["gnubgid"].split(":")[1] + "====")
        assert (raw[0] >> 6) & 1 == (1 if line["turn"] == WHITE else 0)


# -- Match ID -----------------------------------------------------------------
def _match_grid():
    owners = (None, WHITE, BLACK)
    for cube, owner in itertools.product((1, 2, 4, 8, 16, 32, 64), owners):
        yield {"cube_value": cube, "cube_owner": owner}
    for crawford, length, score in itertools.product(
        (False, True), (0, 1, 3, 7, 25), ((0, 0), (2, 5), (24, 24), (25, 13))
    ):
        yield {"crawford": crawford, "match_length": length, "score": score}
    for d1, d2 in itertools.product(range(7), repeat=2):
        yield {"dice": (d1, d2)}
    for state, double, resign in itertools.product(range(5), (False, True), range(4)):
        yield {"game_state": state, "double_offered": double, "resign_offered": resign}


def _full(kwargs: dict, on_roll: str, turn: str) -> dict:
    out = {
        "cube_value": 1,
        "cube_owner": None,
        "on_roll": on_roll,
        "crawford": False,
        "game_state": 1,
        "turn": turn,
        "double_offered": False,
        "resign_offered": 0,
        "dice": (0, 0),
        "match_length": 0,
        "score": (0, 0),
    }
    out.update(kwargs)
    return out


def test_match_id_round_trip_grid():
    seen = set()
    count = 0
    for kwargs in _match_grid():
        for on_roll, turn in itertools.product((WHITE, BLACK), repeat=2):
            full = _full(kwargs, on_roll, turn)
            mid = match_id(**full)
            assert len(mid) == 12
            assert match_from_id(mid) == full
            seen.add(mid)
            count += 1
    assert len(seen) < count  # the defaults overlap between grid rows...
    assert len(seen) > 400  # ...but distinct states give distinct ids


def test_match_id_known_values():
    # gnubg's money-game id at the start of a game (no dice, player 1 = White on roll).
    assert match_id(on_roll=WHITE) == "cAkAAAAAAAAA"
    assert match_id(on_roll=WHITE, dice=(3, 3)) == "cIkNAAAAAAAA"
    assert match_id(on_roll=BLACK, dice=(1, 1)) == "MIEEAAAAAAAA"


def test_match_id_defaults():
    state = match_from_id(match_id(on_roll=BLACK))
    assert state == _full({}, BLACK, BLACK)


def test_match_score_is_white_black():
    mid = match_id(on_roll=WHITE, match_length=7, score=(5, 2))
    assert match_from_id(mid)["score"] == (5, 2)
    # In the bits, player 0 (Black) comes first: Black's 2 then White's 5.
    assert mid == _raw_match_id(cube_owner=3, on_roll=1, game_state=1, turn=1, match_length=7, score0=2, score1=5)


@given(
    cube_log=st.integers(0, 15),
    owner=st.sampled_from([None, WHITE, BLACK]),
    on_roll=st.sampled_from([WHITE, BLACK]),
    turn=st.sampled_from([WHITE, BLACK]),
    crawford=st.booleans(),
    state=st.integers(0, 4),
    double=st.booleans(),
    resign=st.integers(0, 3),
    dice=st.tuples(st.integers(0, 6), st.integers(0, 6)),
    length=st.integers(0, 2**15 - 1),
    score=st.tuples(st.integers(0, 2**15 - 1), st.integers(0, 2**15 - 1)),
)
def test_match_id_round_trip_property(cube_log, owner, on_roll, turn, crawford, state, double, resign, dice, length, score):
    full = {
        "cube_value": 1 << cube_log,
        "cube_owner": owner,
        "on_roll": on_roll,
        "crawford": crawford,
        "game_state": state,
        "turn": turn,
        "double_offered": double,
        "resign_offered": resign,
        "dice": dice,
        "match_length": length,
        "score": score,
    }
    mid = match_id(**full)
    assert match_from_id(mid) == full
    assert match_id(**match_from_id(mid)) == mid


# -- random positions -----------------------------------------------------------
@st.composite
def positions(draw):
    """15 checkers a side over points/bar/off, never both colours on a point.

    Slots: 0 = off, 25 = bar, 1..24 absolute points.
    """
    white = draw(st.lists(st.integers(0, 25), min_size=15, max_size=15))
    taken = {s for s in white if 1 <= s <= 24}
    black_slots = [s for s in range(26) if s not in taken]
    black = draw(st.lists(st.sampled_from(black_slots), min_size=15, max_size=15))
    board = [0] * 25
    for s in white:
        if 1 <= s <= 24:
            board[s] += 1
    for s in black:
        if 1 <= s <= 24:
            board[s] -= 1
    turn = draw(st.sampled_from([WHITE, BLACK]))
    return Position(
        tuple(board),
        white.count(25),
        black.count(25),
        white.count(0),
        black.count(0),
        turn,
    )


@settings(max_examples=400)
@given(positions())
def test_position_round_trip_property(pos):
    pid = position_id(pos)
    assert len(pid) == 14
    assert position_from_id(pid, pos.turn) == pos
    # The key is symmetric: the mirrored position with the other side on roll has the same id.
    assert position_id(pos.mirror()) == pid


@settings(max_examples=200)
@given(positions(), st.tuples(st.integers(1, 6), st.integers(1, 6)), st.sampled_from([WHITE, BLACK]))
def test_gnubg_id_round_trip_property(pos, dice, turn):
    text = gnubg_id(pos, dice=dice, turn=turn)
    back, state = parse_gnubg_id(text)
    assert back == pos
    assert state["dice"] == dice and state["on_roll"] == pos.turn and state["turn"] == turn


# -- bad input --------------------------------------------------------------------
@pytest.mark.parametrize(
    "pid",
    [
        "",
        "4HPwATDgc/ABM",  # 13 characters
        "4HPwATDgc/ABMAA",  # 15 characters
        "4HPwATDgc/AB=A",  # padding character
        "4HPwATDgc/AB A",  # space
        "4HPwATDgc-ABMA",  # URL-safe alphabet is not gnubg's
        "4HPwATDgc/ABMB",  # stray bits in the last character
        "//////////////",  # 80 one-bits: far too many checkers
        "//8AAAAAAAAAAA",  # 16 checkers for the first side
        "/////////////w",  # 80 one-bits: the halves never end
        None,
        12345678901234,
    ],
)
def test_bad_position_ids(pid):
    with pytest.raises(IdError) as exc:
        position_from_id(pid, WHITE)
    assert exc.value.code == "bad_position_id"
    assert exc.value.message


def _raw_position_id(opp: list, mover: list) -> str:
    """Encode two halves (index 1..24 own points, 25 bar) without validation."""
    bits = []
    for half in (opp, mover):
        for n in half[1:26]:
            bits += [1] * n + [0]
    bits += [0] * (80 - len(bits))
    return gnubgid._encode_bits(bits, 10, 14)


def test_too_many_checkers():
    opp = [0] * 26
    opp[6] = 16
    mover = [0] * 26
    mover[6] = 5
    with pytest.raises(IdError) as exc:
        position_from_id(_raw_position_id(opp, mover), WHITE)
    assert exc.value.code == "bad_position_id"
    assert "16" in exc.value.message


def test_both_sides_on_one_point():
    # White on roll, White's 6-point; Black (opponent) on its own 19-point = absolute 6.
    opp = [0] * 26
    opp[19] = 2
    mover = [0] * 26
    mover[6] = 2
    pid = _raw_position_id(opp, mover)
    with pytest.raises(IdError) as exc:
        position_from_id(pid, WHITE)
    assert exc.value.code == "bad_position_id"
    assert "point 6" in exc.value.message
    # Fine once Black sits on its own 6-point instead (absolute 19).
    opp[19], opp[6] = 0, 2
    pos = position_from_id(_raw_position_id(opp, mover), WHITE)
    assert pos.board[6] == 2 and pos.board[19] == -2 and pos.white_off == pos.black_off == 13


def test_bad_turn_for_position_id():
    with pytest.raises(IdError) as exc:
        position_from_id("4HPwATDgc/ABMA", "red")
    assert exc.value.code == "bad_position_id"


def _raw_match_id(**fields) -> str:
    """Encode raw Match ID fields (gnubg names, no validation); unset fields are 0."""
    bits = []
    for name, width in gnubgid._MATCH_FIELDS:
        value = fields.get(name, 0)
        bits += [(value >> k) & 1 for k in range(width)]
    return gnubgid._encode_bits(bits, 9, 12)


def test_raw_match_helper_agrees():
    assert _raw_match_id(cube_owner=3, on_roll=1, game_state=1, turn=1, die1=3, die2=3) == "cIkNAAAAAAAA"


@pytest.mark.parametrize(
    "mid",
    [
        "",
        "cAkAAAAAAAA",  # 11 characters
        "cAkAAAAAAAAAA",  # 13 characters
        "cAkAAAAAAAA=",  # padding character
        "cAkAAAAAAA!A",  # not base64
        _raw_match_id(cube_owner=3, game_state=1, die1=7, die2=1),
        _raw_match_id(cube_owner=3, game_state=1, die1=2, die2=7),
        _raw_match_id(cube_owner=2, game_state=1),  # owner 2 does not exist
        _raw_match_id(cube_owner=3, game_state=5),  # unknown game state
        None,
    ],
)
def test_bad_match_ids(mid):
    with pytest.raises(IdError) as exc:
        match_from_id(mid)
    assert exc.value.code == "bad_match_id"
    assert exc.value.message


def test_max_cube_log_decodes():
    assert match_from_id(_raw_match_id(cube=15, cube_owner=0))["cube_value"] == 1 << 15


@pytest.mark.parametrize(
    "kwargs",
    [
        {"on_roll": "red"},
        {"on_roll": None},
        {"on_roll": WHITE, "cube_value": 3},
        {"on_roll": WHITE, "cube_value": 0},
        {"on_roll": WHITE, "cube_value": 1 << 16},
        {"on_roll": WHITE, "cube_owner": "green"},
        {"on_roll": WHITE, "game_state": 5},
        {"on_roll": WHITE, "resign_offered": 4},
        {"on_roll": WHITE, "dice": (1,)},
        {"on_roll": WHITE, "dice": (3, 7)},
        {"on_roll": WHITE, "dice": (-1, 2)},
        {"on_roll": WHITE, "match_length": 1 << 15},
        {"on_roll": WHITE, "score": (-1, 0)},
    ],
)
def test_bad_match_id_arguments(kwargs):
    with pytest.raises(IdError) as exc:
        match_id(**kwargs)
    assert exc.value.code == "bad_match_id"


def test_gnubg_id_on_roll_must_match_position():
    with pytest.raises(IdError):
        gnubg_id(Position.initial(WHITE), on_roll=BLACK)


@pytest.mark.parametrize("text", ["4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAkAAAAAAAAA:x", None])
def test_bad_gnubg_id(text):
    with pytest.raises(IdError) as exc:
        parse_gnubg_id(text)
    assert exc.value.code == "bad_gnubg_id"


def test_gnubg_id_bad_part_codes():
    with pytest.raises(IdError) as exc:
        parse_gnubg_id("4HPwATDgc/ABM!:cAkAAAAAAAAA")
    assert exc.value.code == "bad_position_id"
    with pytest.raises(IdError) as exc:
        parse_gnubg_id("4HPwATDgc/ABMA:cAkAAAAAAAA")
    assert exc.value.code == "bad_match_id"


def test_match_ids_written_by_gnubg_107_with_a_flag_past_bit_66_decode():
    # gnubg 1.07 shows MAGgAAAAAAAE where the 66 documented bits give MAGgAAAAAAAA.
    assert match_from_id("MAGgAAAAAAAE") == match_from_id("MAGgAAAAAAAA")
