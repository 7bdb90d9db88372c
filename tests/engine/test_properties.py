"""Property tests of the move generator, the play checker, notation and Position ID.

Positions come from play: the initial position followed by up to 60 random
legal turns (dice and the choice of play drawn by hypothesis), plus two more
families: bear-off positions (the last-checker and higher-die bear-off rules),
checkers scattered in random stacks (blocked dice, compulsory orders) and a
lone runner in front of blocks (the higher-die rule, which random play
reaches only rarely).
Every property is checked against the rules of RULES.md, and the play set is
compared with a deliberately naive reference generator written here from the
rules (every order of the dice, one step at a time, keep the plays that use
the most dice, then the higher-die rule).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import BLACK, WHITE, IllegalPlay, Position, check_play, format_play, legal_plays, parse_play
from games.engine.gnubgid import position_from_id, position_id

SETTINGS = settings(
    derandomize=True,
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))


def is_finished(pos: Position) -> bool:
    return pos.white_off == 15 or pos.black_off == 15


@st.composite
def played_positions(draw):
    """The initial position after 0..60 random legal turns (either side may start)."""
    pos = Position.initial(draw(st.sampled_from([WHITE, BLACK])))
    for _ in range(draw(st.integers(0, 60))):
        if is_finished(pos):
            break
        plays = legal_plays(pos, draw(dice_st))
        pos = plays[draw(st.integers(0, len(plays) - 1))].result
    return pos


@st.composite
def bearoff_positions(draw):
    """Both sides in their home boards (some off, maybe one on the bar)."""
    board = [0] * 25
    counts = {}
    for color in (WHITE, BLACK):
        on_board = draw(st.integers(1, 15))
        bar = 0
        for _ in range(on_board):
            if draw(st.integers(0, 20)) == 0:
                bar += 1  # now and then a checker was hit late
                continue
            point = draw(st.integers(1, 6))
            if color == WHITE:
                board[point] += 1
            else:
                board[25 - point] -= 1
        counts[color] = (bar, 15 - on_board)
    pos = Position(
        tuple(board),
        counts[WHITE][0],
        counts[BLACK][0],
        counts[WHITE][1],
        counts[BLACK][1],
        draw(st.sampled_from([WHITE, BLACK])),
    )
    pos.validate()
    return pos


@st.composite
def scattered_positions(draw):
    """Checkers in random stacks anywhere (valid, if not always reachable): lots of
    made points, so blocked dice, compulsory orders and the higher-die rule turn up."""
    board = [0] * 25
    extra = {WHITE: [0, 0], BLACK: [0, 0]}  # bar, off
    for color, sign in ((WHITE, 1), (BLACK, -1)):
        left = 15
        while left:
            size = draw(st.integers(1, min(5, left)))
            where = draw(st.integers(0, 25))  # 0 off, 25 the bar, else a point
            if where == 0:
                extra[color][1] += size
            elif where == 25:
                size = min(size, 2)
                extra[color][0] += size
            else:
                if board[where] * sign < 0:
                    continue  # held by the other colour: draw again
                board[where] += sign * size
            left -= size
    pos = Position(
        tuple(board), extra[WHITE][0], extra[BLACK][0], extra[WHITE][1], extra[BLACK][1],
        draw(st.sampled_from([WHITE, BLACK])),
    )
    pos.validate()
    return pos


@st.composite
def runner_positions(draw):
    """One free checker in front of blocks, the rest stuck on the 1-point (it cannot
    bear off while the runner is out): the either-die-but-not-both case of the
    higher-die rule, which the other families almost never reach."""
    board = [0] * 25
    runner = draw(st.integers(8, 24))
    board[1] = 14
    board[runner] = 1
    black_left = 15
    for point in draw(st.lists(st.integers(2, 24), max_size=7, unique=True)):
        if board[point] or black_left < 2:
            continue
        board[point] = -2
        black_left -= 2
    pos = Position(tuple(board), 0, 0, 0, black_left, WHITE)
    pos.validate()
    return pos.mirror() if draw(st.booleans()) else pos


positions = st.one_of(played_positions(), bearoff_positions(), scattered_positions(), runner_positions())


# -- the naive reference generator (mover's frame: own[25] bar, own[0] off) ----------


def mover_frame(pos: Position):
    """(own, opp) tuples seen from the side on roll: index = its own point number."""
    own = [0] * 26
    opp = [0] * 26
    for a in range(1, 25):
        v = pos.board[a]
        mine = a if pos.turn == WHITE else 25 - a
        if (v > 0) == (pos.turn == WHITE) and v != 0:
            own[mine] = abs(v)
        elif v != 0:
            opp[mine] = abs(v)
    own[25] = pos.bar(pos.turn)
    own[0] = pos.off(pos.turn)
    return own, opp


def one_step(own, opp, die):
    """Every (own, opp) reachable by moving one checker by ``die``."""
    out = []
    sources = [25] if own[25] else [p for p in range(1, 25) if own[p]]
    for src in sources:
        dst = src - die
        if dst >= 1:
            if opp[dst] >= 2:
                continue
            o, q = list(own), list(opp)
            o[src] -= 1
            o[dst] += 1
            if q[dst] == 1:
                q[dst] = 0
                q[25] += 1  # the hit checker goes to the opponent's bar
            out.append((tuple(o), tuple(q)))
        else:
            if sum(own[7:26]):
                continue  # bearing off needs every checker home
            if dst < 0 and any(own[src + 1 : 7]):
                continue  # a larger die only from the highest point
            o = list(own)
            o[src] -= 1
            o[0] += 1
            out.append((tuple(o), tuple(opp)))
    return out


def reference_results(pos: Position, dice) -> set:
    """The resulting positions (as (own, opp)) of all legal plays, by the book."""
    a, b = dice
    orders = [(a,) * 4] if a == b else [(a, b), (b, a)]
    found = {}  # (own, opp) -> (dice used, first die)

    def rec(own, opp, order, used, first):
        if own[0] == 15:
            used = len(order)  # the game is over: nothing more could be played
        else:
            nexts = one_step(own, opp, order[used]) if used < len(order) else []
            if nexts:
                for o, q in nexts:
                    rec(o, q, order, used + 1, first if used else order[0])
                return
        key = (own, opp)
        prev = found.get(key)
        if prev is None or used > prev[0]:
            found[key] = (used, first)
        elif used == prev[0] and first is not None and prev[1] is not None and first > prev[1]:
            found[key] = (used, first)

    own, opp = mover_frame(pos)
    opp = opp[:25] + [pos.bar(other_color(pos.turn))]
    for order in orders:
        rec(tuple(own), tuple(opp), order, 0, None)
    most = max(used for used, _ in found.values())
    best = {k: v for k, v in found.items() if v[0] == most}
    if a != b and most == 1:
        high = max(a, b)
        with_high = {k: v for k, v in best.items() if v[1] == high}
        if with_high:
            best = with_high
    return set(best)


def other_color(color):
    return BLACK if color == WHITE else WHITE


def as_reference(pos_before: Position, result: Position):
    """A result position in the reference generator's (own, opp) form."""
    own, opp = mover_frame(result.with_turn(pos_before.turn))
    return tuple(own), tuple(opp[:25] + [result.bar(other_color(pos_before.turn))])


# -- properties ---------------------------------------------------------------------------


def checkers(pos: Position, color: str) -> int:
    if color == WHITE:
        return sum(v for v in pos.board[1:] if v > 0) + pos.white_bar + pos.white_off
    return sum(-v for v in pos.board[1:] if v < 0) + pos.black_bar + pos.black_off


@SETTINGS
@given(positions, dice_st)
def test_play_set_matches_the_naive_reference_generator(pos, dice):
    plays = legal_plays(pos, dice)
    assert {as_reference(pos, p.result) for p in plays} == reference_results(pos, dice)
    # one play per distinct resulting position
    assert len({p.result.key() for p in plays}) == len(plays)


@SETTINGS
@given(positions, dice_st)
def test_checkers_are_conserved_and_the_turn_passes(pos, dice):
    for play in legal_plays(pos, dice):
        after = play.result
        after.validate()
        assert checkers(after, WHITE) == 15 and checkers(after, BLACK) == 15
        assert after.turn == other_color(pos.turn)
        assert all(isinstance(v, int) for v in after.board) and after.board[0] == 0


@SETTINGS
@given(positions, dice_st)
def test_pip_counts_move_the_right_way(pos, dice):
    me, you = pos.turn, other_color(pos.turn)
    for play in legal_plays(pos, dice):
        after = play.result
        # every step moves a checker forward (or off): the mover's count falls by the pips used
        assert after.pip_count(me) <= pos.pip_count(me)
        if play.steps:
            assert after.pip_count(me) < pos.pip_count(me)
        else:
            assert after == pos.with_turn(you)
        # hits only push the opponent back
        assert after.pip_count(you) >= pos.pip_count(you)
        hits = after.bar(you) - pos.bar(you)
        assert hits == len(play.hit_points())
        if hits == 0:
            assert after.pip_count(you) == pos.pip_count(you)


@SETTINGS
@given(positions, dice_st)
def test_dice_order_does_not_change_the_play_set(pos, dice):
    a, b = dice
    assert {p.result.key() for p in legal_plays(pos, (a, b))} == {p.result.key() for p in legal_plays(pos, (b, a))}


@SETTINGS
@given(positions, dice_st)
def test_mirroring_the_colours_mirrors_the_play_set(pos, dice):
    mirrored = pos.mirror()
    assert mirrored.mirror() == pos
    assert mirrored.pip_count(other_color(pos.turn)) == pos.pip_count(pos.turn)
    ours = {p.result.mirror().key() for p in legal_plays(pos, dice)}
    theirs = {p.result.key() for p in legal_plays(mirrored, dice)}
    assert ours == theirs


@SETTINGS
@given(positions, dice_st)
def test_every_play_is_accepted_by_the_checker_in_either_order(pos, dice):
    for play in legal_plays(pos, dice):
        steps = list(play.steps)
        checked = check_play(pos, dice, steps)
        assert checked.result == play.result
        # check_play documents that any order of the steps is accepted; a play whose
        # order is compulsory must still be found through its legal order.
        try:
            reversed_play = check_play(pos, dice, steps[::-1])
        except IllegalPlay as exc:
            raise AssertionError(f"reversed {steps} refused: {exc.code}") from exc
        assert reversed_play.result == play.result
        # wire dicts are accepted too
        assert check_play(pos, dice, play.to_list()).result == play.result


@SETTINGS
@given(positions, dice_st)
def test_every_play_uses_as_many_dice_as_possible(pos, dice):
    plays = legal_plays(pos, dice)
    most = max(len(p.steps) for p in plays)
    full = 4 if dice[0] == dice[1] else 2
    for play in plays:
        n = len(play.steps)
        assert n <= full
        assert n == len(play.dice_used)
        if n < most:
            assert play.result.off(pos.turn) == 15, f"{play} uses {n} dice while another uses {most}"
    if most == 0:
        assert len(plays) == 1 and plays[0].result == pos.with_turn(other_color(pos.turn))
    # higher-die rule: a single step with different dice plays the higher one when it can
    if dice[0] != dice[1] and most == 1:
        high = max(dice)
        used = {p.dice_used[0] for p in plays if p.result.off(pos.turn) < 15}
        if any(check_single(pos, high)):
            assert used <= {high}


@settings(derandomize=True, max_examples=300, deadline=None)
@given(runner_positions(), st.tuples(st.integers(1, 6), st.integers(1, 6)).filter(lambda d: d[0] != d[1]))
def test_higher_die_rule_with_a_lone_runner(pos, dice):
    """Only the runner can move. When it can play either die but not both, the play
    set is exactly the higher die's move; when it can play both, every play uses both."""
    plays = legal_plays(pos, dice)
    assert {as_reference(pos, p.result) for p in plays} == reference_results(pos, dice)
    low, high = sorted(dice)
    can_low, can_high = bool(check_single(pos, low)), bool(check_single(pos, high))
    most = max(len(p.steps) for p in plays)
    if most == 1 and can_low and can_high:
        assert len(plays) == 1 and plays[0].dice_used == (high,)
        # and the checker names the rule when the lower die is played instead
        # (only the runner can move, so the first step of a low-low play is its low move)
        low_step = legal_plays(pos, (low, low))[0].steps[0]
        try:
            check_play(pos, dice, [low_step])
        except IllegalPlay as exc:
            assert exc.code == "must_use_higher_die"
        else:
            raise AssertionError("the lower die alone was accepted")


def check_single(pos, die):
    own, opp = mover_frame(pos)
    opp = opp[:25] + [0]
    return one_step(tuple(own), tuple(opp), die)


@SETTINGS
@given(positions, dice_st)
def test_notation_round_trip(pos, dice):
    for play in legal_plays(pos, dice):
        text = format_play(pos, play)
        assert parse_play(pos, dice, text).result == play.result, text
        if not play.steps:
            assert text == ""


@SETTINGS
@given(positions)
def test_position_id_round_trip(pos):
    pid = position_id(pos)
    assert len(pid) == 14
    assert position_from_id(pid, pos.turn) == pos
    # the id is oriented by the side on roll: the mirror on roll for the other side
    assert position_id(pos.mirror()) == pid


def test_reference_generator_agrees_on_known_positions():
    """The oracle itself, on hand-checked cases (so a broken oracle cannot hide bugs)."""
    start = Position.initial()
    # 3-1 from the start: 16 distinct results (the engine's doctest and gnubg agree)
    assert len(reference_results(start, (3, 1))) == 16
    # White: one checker on the 6-point, 6-1 -> 6/off (or 6/5/off): one result, all off
    board = [0] * 25
    board[6] = 1
    board[19] = -15
    pos = Position(tuple(board), 0, 0, 14, 0, WHITE)
    results = reference_results(pos, (6, 1))
    assert len(results) == 1 and next(iter(results))[0][0] == 15
    # closed board, White on the bar: only the pass
    board = [0] * 25
    for p in range(19, 25):
        board[p] = -2
    board[6] = 14
    board[1] = -3
    pos = Position(tuple(board), 1, 0, 0, 0, WHITE)
    assert reference_results(pos, (6, 5)) == {as_reference(pos, pos.with_turn(BLACK))}
