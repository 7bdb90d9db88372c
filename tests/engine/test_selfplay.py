"""Self-play: thousands of random games and a handful of whole matches.

Every game is played through :class:`GameState` with random legal plays and
random cube and resignation decisions (seeded ``random.Random``: deterministic).
A referee written here from RULES.md follows along: it keeps its own cube
value, checks 15 checkers per side and alternating turns at every step, and at
the end recomputes the result (winner, kind, points = multiplier x cube with
the Jacoby rule, last-roll outcomes) and compares it with the engine's.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import (
    BLACK,
    CUBE_OFFERED,
    MOVE,
    OPENING,
    OVER,
    RESIGN_OFFERED,
    TURN,
    WHITE,
    GameRules,
    GameState,
    MatchRules,
    MatchState,
    Position,
)

MULTIPLIER = {"single": 1, "gammon": 2, "backgammon": 3, "double_backgammon": 4}
LEVEL_KIND = {1: "single", 2: "gammon", 3: "backgammon"}


def other(color):
    return BLACK if color == WHITE else WHITE


def count_checkers(pos: Position, color: str) -> int:
    if color == WHITE:
        return sum(v for v in pos.board[1:] if v > 0) + pos.white_bar + pos.white_off
    return sum(-v for v in pos.board[1:] if v < 0) + pos.black_bar + pos.black_off


def kind_won(pos: Position, winner: str, double_backgammon: bool) -> str:
    """RULES.md "Winning a game", judged on the loser's checkers."""
    loser = other(winner)
    if pos.off(loser):
        return "single"
    home = range(1, 7) if winner == WHITE else range(19, 25)
    in_home = any((pos.board[p] < 0) if winner == WHITE else (pos.board[p] > 0) for p in home)
    if pos.bar(loser) and double_backgammon:
        return "double_backgammon"
    if pos.bar(loser) or in_home:
        return "backgammon"
    return "gammon"


class Referee:
    """Follows one game and knows what its result must be."""

    def __init__(self, rules: GameRules):
        self.rules = rules
        self.cube = 1
        self.owner = None
        self.turned = False
        self.ties = 0
        self.last_mover = None
        self.frozen = None  # (winner, kind) when the first mover finished under the last-roll rule
        self.left_at_roll = None
        self.events = Counter()

    def points(self, kind: str, cube: int) -> int:
        mult = MULTIPLIER[kind]
        if self.rules.jacoby and not self.turned:
            mult = 1
        return mult * cube

    def check_state(self, g: GameState) -> None:
        pos = g.position
        pos.validate()
        assert count_checkers(pos, WHITE) == 15 and count_checkers(pos, BLACK) == 15
        assert g.cube_value == self.cube and g.cube_owner == self.owner and g.cube_turned == self.turned
        limit = self.rules.cube_limit
        assert limit is None or g.cube_value <= limit
        assert g.cube_value & (g.cube_value - 1) == 0
        if not self.rules.cube_in_play:
            assert g.cube_value == 1 and g.cube_owner is None
        if g.phase != OVER:
            assert g.result is None
            assert pos.white_off < 15 or pos.black_off < 15


def play_game(rng: random.Random, rules: GameRules, *, p_double=0.06, p_take=0.7, p_resign=0.01, start=None):
    """Play one random game to the end; return (final state, referee)."""
    ref = Referee(rules)
    g = GameState.new(rules, start)
    ref.check_state(g)
    while g.phase == OPENING:
        w, b = rng.randint(1, 6), rng.randint(1, 6)
        g = g.opening_roll(w, b)
        if w == b:
            if rules.cube_in_play and ref.ties < rules.auto_doubles and (
                rules.cube_limit is None or ref.cube * 2 <= rules.cube_limit
            ):
                ref.cube *= 2
                ref.ties += 1
                ref.events["auto_double"] += 1
            assert g.phase == OPENING
        else:
            assert g.first_mover == (WHITE if w > b else BLACK) and g.dice == (max(w, b), min(w, b))
            ref.left_at_roll = 15 - g.position.off(g.first_mover)
        ref.check_state(g)

    while not g.is_over:
        actor = g.actor
        if g.phase == TURN:
            assert actor == g.position.turn
            if g.can_raccoon(actor) and rng.random() < 0.5:
                g = g.raccoon(actor)
                ref.cube *= 2
                ref.events["raccoon"] += 1
            elif g.can_double(actor) and rng.random() < p_double:
                assert ref.owner in (None, actor) and g.last_roll_pending is None
                g = g.double(actor)
                assert g.phase == CUBE_OFFERED and g.actor == other(actor)
            elif rng.random() < p_resign:
                g = g.offer_resignation(rng.choice([WHITE, BLACK]), rng.randint(1, 3))
            else:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                ref.left_at_roll = 15 - g.position.off(actor)
                g = g.roll(actor, dice)
        elif g.phase == MOVE:
            assert actor != ref.last_mover, "turns must alternate"
            plays = g.legal_plays()  # (the play set itself is checked in test_properties.py)
            full = 4 if g.dice[0] == g.dice[1] else 2
            play = rng.choice(plays)
            steps = list(play.steps)
            if rng.random() < 0.3:
                steps.reverse()  # any order of a legal play is accepted
            dice = g.dice
            before = g.position
            g = g.move(actor, steps)
            assert g.position == play.result
            ref.last_mover = actor
            assert len(play.steps) <= full
            if g.position.off(actor) == 15:
                _referee_bear_off(ref, g, actor, dice, len(play.steps), before)
            elif g.phase != OVER:
                assert g.phase == TURN and g.actor == other(actor)
        elif g.phase == CUBE_OFFERED:
            r = rng.random()
            if g.can_beaver(actor) and r < 0.2 * p_take:
                g = g.beaver(actor)
                ref.cube *= 4
                ref.owner = actor
                ref.turned = True
                ref.events["beaver"] += 1
            elif r < p_take:
                g = g.take(actor)
                ref.cube *= 2
                ref.owner = actor
                ref.turned = True
                ref.events["take"] += 1
            else:
                expected_winner = other(actor)
                g = g.drop(actor)
                r = g.result
                assert (r.winner, r.kind, r.reason, r.cube_value) == (expected_winner, "single", "drop", ref.cube)
                assert r.points == ref.cube
        elif g.phase == RESIGN_OFFERED:
            resigner, level = g.resign_offer
            assert actor == other(resigner)
            if rng.random() < 0.8:
                g = g.reject_resignation(actor)
            else:
                g = g.accept_resignation(actor)
                r = g.result
                assert (r.winner, r.kind, r.reason) == (actor, LEVEL_KIND[level], "resign")
                assert r.points == ref.points(LEVEL_KIND[level], ref.cube)
        else:  # pragma: no cover
            raise AssertionError(g.phase)
        ref.check_state(g)

    r = g.result
    assert g.phase == OVER and r is not None
    assert r.winner in (WHITE, BLACK) or (r.winner is None and r.kind == "tie" and rules.last_roll)
    assert r.cube_value == ref.cube
    if r.winner is not None:
        assert r.points == ref.points(r.kind, r.cube_value) > 0
    if ref.frozen is not None and r.reason == "bearoff":
        # the last-roll player did not finish: the first mover wins what it had won
        assert (r.winner, r.kind) == ref.frozen
    ref.events[r.reason] += 1
    ref.events[r.kind] += 1
    return g, ref


def _referee_bear_off(ref: Referee, g: GameState, mover: str, dice, nsteps: int, before: Position) -> None:
    """The mover has just borne off its last checker: RULES.md and seed 002 decide what happens."""
    rules = ref.rules
    doubles = dice[0] == dice[1]
    left = ref.left_at_roll
    if ref.frozen is not None:
        # the last-roll player finished too
        if doubles and left <= 3:
            expect = (mover, "single", "last_roll")
        elif (not doubles and left <= 2) or (doubles and left == 4):
            expect = (None, "tie", "last_roll")
        else:  # pragma: no cover - cannot bear off 3+ with two dice or 5+ with four
            raise AssertionError("impossible last roll")
        assert g.phase == OVER
        assert (g.result.winner, g.result.kind, g.result.reason) == expect
        assert g.result.points == (0 if expect[0] is None else ref.cube)
        ref.events["last_roll_" + expect[1]] += 1
        return
    kind = kind_won(g.position, mover, rules.double_backgammon)
    steal = doubles and left <= 3 and nsteps < 4
    if rules.last_roll and mover == g.first_mover and not steal:
        assert g.phase == TURN and g.actor == other(mover)
        assert g.last_roll_pending == (mover, kind, 15 - g.position.off(other(mover)))
        ref.frozen = (mover, kind)
        ref.events["last_roll_given"] += 1
        return
    if rules.last_roll and mover == g.first_mover:
        ref.events["steal"] += 1
    assert g.phase == OVER
    assert (g.result.winner, g.result.kind, g.result.reason) == (mover, kind, "bearoff")


MONEY = GameRules(beaver=True, raccoon=True, jacoby=True, auto_doubles=2, cube_limit=None)
MONEY_LAST_ROLL = GameRules(beaver=True, jacoby=True, last_roll=True, double_backgammon=True, cube_limit=64)
MATCH_GAME = MatchState.new(MatchRules(length=7)).game_rules()

RULE_SETS = {"money": MONEY, "money_last_roll": MONEY_LAST_ROLL, "match": MATCH_GAME}


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(6))
def test_random_games(chunk):
    """3000 games in all: 6 chunks of 500, each over the three rule sets."""
    rng = random.Random(1000 + chunk)
    totals = Counter()
    for i in range(500):
        name = ("money", "money_last_roll", "match")[i % 3]
        rules = RULE_SETS[name]
        # fewer doubles under the last-roll rule, so more of those games reach the last roll
        g, ref = play_game(rng, rules, p_double=0.08 if name != "money_last_roll" else 0.04)
        totals.update(ref.events)
        totals[name] += 1
    # the random games must actually reach the cases they are meant to check
    for event in ("bearoff", "drop", "resign", "gammon", "backgammon", "take", "beaver", "raccoon",
                  "auto_double", "last_roll_given"):
        assert totals[event] > 0, (event, totals)
    assert totals["money"] + totals["money_last_roll"] + totals["match"] == 500


def test_endgames_reach_every_last_roll_branch_and_double_backgammons():
    """Games from bear-off starts, so every branch of seed 002's last-roll rule occurs, and
    from starts where the loser still has a checker back (double backgammon, 4 x cube)."""
    rng = random.Random(7)
    totals = Counter()
    for _ in range(600):
        board = [0] * 25
        n_white, n_black = rng.randint(1, 6), rng.randint(1, 6)
        for _ in range(n_white):
            board[rng.randint(1, 4)] += 1
        for _ in range(n_black):
            board[25 - rng.randint(1, 4)] -= 1
        start = Position(tuple(board), 0, 0, 15 - n_white, 15 - n_black)
        g, ref = play_game(rng, GameRules(last_roll=True), p_double=0.02, p_resign=0, start=start)
        totals.update(ref.events)
    for event in ("last_roll_given", "last_roll_tie", "last_roll_single", "steal"):
        assert totals[event] > 0, (event, totals)
    for _ in range(300):
        # White nearly home; Black, nothing off, has a checker on the bar and the rest around
        board = [0] * 25
        for p in (1, 2, 3):
            board[p] = 1
        for _ in range(14):
            board[rng.randint(13, 24)] -= 1
        start = Position(tuple(board), 0, 1, 12, 0, rng.choice([WHITE, BLACK]))
        rules = GameRules(double_backgammon=True, jacoby=rng.random() < 0.5, last_roll=rng.random() < 0.5)
        g, ref = play_game(rng, rules, p_double=0.05, p_resign=0, start=start)
        totals.update(ref.events)
    assert totals["double_backgammon"] > 0 and totals["backgammon"] > 0, totals


# -- whole matches ------------------------------------------------------------------------------


def play_match(rng: random.Random, rules: MatchRules):
    m = MatchState.new(rules)
    n = rules.length
    score = {WHITE: 0, BLACK: 0}
    crawford_games = 0
    expect_crawford = False
    crawford_done = False
    reached_n_minus_1 = False
    while not m.is_over:
        game_rules = m.game_rules()
        assert game_rules.crawford_game == expect_crawford == m.is_crawford_game
        assert game_rules.cube_in_play == (rules.cube and not expect_crawford)
        # rare doubles, often dropped: matches of several games, not one huge cube
        g, ref = play_game(rng, game_rules, p_double=0.02, p_take=0.4)
        if expect_crawford:
            crawford_games += 1
            assert g.cube_value == 1 and not g.cube_turned and g.result.reason != "drop"
        r = g.result
        score[r.winner] += r.points
        m = m.record(r)
        assert m.score == (score[WHITE], score[BLACK])
        assert MatchState.from_dict(m.to_dict()) == m
        crawford_done = crawford_done or expect_crawford
        leader_at = max(score.values())
        if leader_at >= n:
            assert m.winner == max(score, key=score.get) and m.is_over
            break
        if leader_at == n - 1:
            reached_n_minus_1 = True
        expect_crawford = rules.crawford and not crawford_done and leader_at == n - 1
    assert score[m.winner] >= n and score[other(m.winner)] < n
    if rules.crawford:
        assert crawford_games == (1 if reached_n_minus_1 else 0)
    else:
        assert crawford_games == 0
    return m, crawford_games, reached_n_minus_1


@pytest.mark.parametrize("length", [5, 7])
def test_whole_matches(length):
    rng = random.Random(length)
    seen = Counter()
    for i in range(25):
        rules = MatchRules(length=length, crawford=i % 5 != 4, double_backgammon=i % 3 == 0)
        m, crawford_games, reached = play_match(rng, rules)
        seen["crawford" if crawford_games else ("skipped" if not reached else "rule_off")] += 1
    # some matches had their Crawford game, some ended without ever being one away
    assert seen["crawford"] > 0 and seen["skipped"] > 0, seen
