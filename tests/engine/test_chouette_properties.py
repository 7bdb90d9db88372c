"""Property tests of the chouette engine (hypothesis).

- Whole random games of 3 to 8 players under random options, dice and choices
  scripted by a seeded ``random.Random`` (deterministic): every generated action
  comes from what the engine says is allowed and must be accepted; what it says
  is not allowed must be refused; the game always ends. A referee written here
  checks every step (cube values, the captain, who is pending) and the end
  (each cube's points recomputed from the final position, zero-sum scores, the
  ledger per cube), and every settlement moves exactly its amount.
- Rotation: whatever the results, joins and leaves, every player sits in the
  line exactly once and the running scores sum to zero.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import BLACK, WHITE, IllegalAction
from games.engine.chouette import ACTIONS, ChouetteGame, ChouetteResult, ChouetteRules, ChouetteSession
from games.engine.chouette.rules import ROUND_PHASES

from tests.engine.chouette_helpers import PLAYERS, random_action, refuses_the_rest

SETTINGS = settings(
    derandomize=True, max_examples=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MULTIPLIER = {"single": 1, "gammon": 2, "backgammon": 3}
MAX_STEPS = 6000

@st.composite
def rules_st(draw):
    beaver = draw(st.booleans())
    return ChouetteRules(
        jacoby=draw(st.booleans()),
        beaver=beaver,
        raccoon=beaver and draw(st.booleans()),
        full_consultation=draw(st.booleans()),
        cube_limit=draw(st.sampled_from([None, 4, 16, 64])),
        captain_buys=draw(st.booleans()),
        last_member_buys=draw(st.booleans()),
        settlements=draw(st.booleans()),
    )


def kind_won(pos, winner_color: str) -> str:
    """RULES.md "Winning a game", judged on the loser's checkers (written here again)."""
    loser = BLACK if winner_color == WHITE else WHITE
    if pos.off(loser):
        return "single"
    home = range(1, 7) if winner_color == WHITE else range(19, 25)
    if winner_color == WHITE:
        in_home = any(pos.board[p] < 0 for p in home)
    else:
        in_home = any(pos.board[p] > 0 for p in home)
    return "backgammon" if pos.bar(loser) or in_home else "gammon"


def check_step(g: ChouetteGame) -> None:
    limit = g.rules.cube_limit
    for c in g.cubes:
        assert c.value & (c.value - 1) == 0 and (limit is None or c.value <= limit)
        assert c.holder in g.team and (c.opponent == g.box or c.opponent in g.team)
        if c.value == 1:
            assert c.owner is None or c.end is not None or c.stage is not None
    assert sum(p for _, p in g.running_scores()) == 0
    assert not g.may_consult(g.box)
    if g.is_over:
        assert g.pending() == ()
        return
    for p in g.pending():
        if p.player is not None:
            assert p.player not in g.departed and p.player in g.players
    if g.phase not in ROUND_PHASES and g.phase != "opening":
        assert g.captain not in g.departed and g.captain in g.holders(present=True)
        assert g.may_consult(g.captain)


def check_end(g: ChouetteGame) -> ChouetteResult:
    res = g.result()
    scores = dict(res.scores)
    assert sum(scores.values()) == 0 and set(scores) == set(g.players)
    assert [m.player for m in res.members] == list(g.team)
    for c in res.cubes:
        assert c.end is not None and c.stage is None
        if c.end in ("bearoff", "forfeit"):
            winner_color = WHITE if c.winner == "box" else BLACK
            kind = kind_won(g.position, winner_color)
            mult = 1 if (g.rules.jacoby and not c.turned) else MULTIPLIER[kind]
            assert c.kind == kind and abs(c.points) == mult * c.value
            assert (c.points > 0) == (c.winner == "team")
        net = 0  # the ledger between the cube's final parties, side payments of rules 3/4 left out
        for pay in res.payments:
            assert pay.points > 0
            if pay.cube != c.member or pay.reason in ("buy", "last_member"):
                continue
            if (pay.payer, pay.payee) == (c.opponent, c.holder):
                net += pay.points
            elif (pay.payer, pay.payee) == (c.holder, c.opponent):
                net -= pay.points
        assert net == c.points, (c, res.payments)
    if res.ending == "bearoff":
        assert g.position.off(WHITE if res.board_winner == "box" else BLACK) == 15
        assert res.box_holds == (res.board_winner == "box")
    return res


def play(seed: int, n: int, rules: ChouetteRules, *, probe_every: int = 25):
    """One random game to the end; returns the final state and a tally of actions."""
    rng = random.Random(seed)
    g = ChouetteGame.new(rules, PLAYERS[0], PLAYERS[1:n])
    tally = {}
    for step in range(MAX_STEPS):
        if g.is_over:
            break
        action, player, fields = random_action(g, rng)
        before = g
        if action != "opening_roll":
            assert action in g.allowed_actions(player), (action, player, g.pending())
        g = g.apply(action, player, **fields)  # must be legal: no exception
        tally[action] = tally.get(action, 0) + 1
        check_step(g)
        if action == "accept_settlement":
            offer = next(o for o in before.offers if o.cube == fields["cube"] and o.proposer != player)
            was, now = dict(before.running_scores()), dict(g.running_scores())
            delta = {p: now[p] - was[p] for p in now if now[p] != was[p]}
            expected = {offer.proposer: offer.amount, player: -offer.amount} if offer.amount else {}
            assert delta == expected
        if step % probe_every == 0:
            refuses_the_rest(g, rng.choice(g.players), ACTIONS)
            assert ChouetteGame.from_dict(json.loads(json.dumps(g.to_dict()))) == g
    assert g.is_over, f"no end after {MAX_STEPS} actions"
    return g, tally


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 8), rules=rules_st())
def test_random_whole_games_end_legally_and_sum_to_zero(seed, n, rules):
    g, _ = play(seed, n, rules)
    res = check_end(g)
    session = ChouetteSession.new(rules, g.players)
    session, _ = session.start_game()
    session = session.record(res)
    assert sorted(session.line) == sorted(g.players)
    assert sum(p for _, p in session.scores) == 0


def test_random_games_reach_every_kind_of_action_and_ending():
    """The driver above is not idle: over a fixed set of games it exercises every
    action and every way a game can end (a guard for the property test)."""
    seen, endings = set(), set()
    for seed in range(60):
        rules = ChouetteRules(raccoon=seed % 2 == 0, cube_limit=None if seed % 3 else 64)
        g, tally = play(seed, 3 + seed % 6, rules, probe_every=200)
        seen |= set(tally)
        endings.add(g.ending)
        check_end(g)
    assert seen >= set(ACTIONS) - {"timeout"}
    assert endings == {"bearoff", "cubes", "forfeit"}


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 8))
def test_a_session_of_random_games_keeps_everyone_once_and_scores_at_zero(seed, n):
    rng = random.Random(seed)
    session = ChouetteSession.new(ChouetteRules(), PLAYERS[:n])
    everyone = set(PLAYERS[:n])
    for game_no in range(3):
        session, g = session.start_game()
        if rng.random() < 0.3 and len(session.line) + len(session.waiting) < 8:
            newcomer = f"new{game_no}"
            session = session.join(newcomer)
            everyone.add(newcomer)
        for _ in range(MAX_STEPS):
            if g.is_over:
                break
            action, player, fields = random_action(g, rng, p_leave=0)
            g = g.apply(action, player, **fields)
        session = session.record(check_end(g))
        assert sorted(session.line) == sorted(set(session.line))
        assert set(session.line) == everyone
        assert sum(p for _, p in session.scores) == 0


@SETTINGS
@given(
    n=st.integers(3, 8),
    script=st.lists(
        st.tuples(st.sampled_from(["game", "join", "leave"]), st.booleans(), st.integers(0, 7),
                  st.lists(st.integers(-12, 12), min_size=8, max_size=8)),
        max_size=25,
    ),
)
def test_rotation_keeps_every_player_in_the_line_exactly_once(n, script):
    rules = ChouetteRules()
    session = ChouetteSession.new(rules, list(range(n)))
    seated, next_id = set(range(n)), n
    for op, holds, pick, points in script:
        if op == "join":
            try:
                session = session.join(next_id)
                seated.add(next_id)
            except IllegalAction as exc:
                assert exc.code == "table_full" and len(session.line) == rules.max_players
            next_id += 1
        elif op == "leave" and session.line:
            who = session.line[pick % len(session.line)]
            session = session.leave(who)
            seated.discard(who)
        elif op == "game" and session.can_start:
            session, g = session.start_game()
            team = g.team
            gained = [(p, points[i]) for i, p in enumerate(team)]
            scores = ((g.box, -sum(v for _, v in gained)),) + tuple(gained)
            result = ChouetteResult(
                box=g.box, team=team, first_captain=team[0], final_captain=team[pick % len(team)],
                ending="cubes", board_winner=None, box_holds=holds, cubes=(), payments=(), scores=scores,
            )
            before = session.line
            session = session.record(result)
            if holds:
                assert session.line[0] == before[0] and session.line[-1] == before[1]
            else:
                assert session.line[0] == result.final_captain and session.line[-1] == before[0]
        assert len(session.line) == len(set(session.line))
        assert set(session.line) == seated
        assert sum(p for _, p in session.scores) == 0


def test_a_whole_game_on_scripted_dice_without_cubes():
    """Fixed dice, first legal play, every window passed: the board decides every
    cube alike (centred cubes: Jacoby makes everything single)."""
    script = [(6, 5), (4, 2), (3, 1), (6, 6), (5, 3), (2, 2), (6, 4), (5, 1), (4, 4), (3, 2), (5, 5), (6, 1)]
    g = ChouetteGame.new(ChouetteRules(), "box", ["c1", "c2", "c3", "c4"])
    g = g.opening_roll(box_die=4, team_die=2)
    turn = 0
    while not g.is_over:
        assert turn < 500
        if g.phase == "cube_window":
            g = g.no_double(g.window_decider())
        elif g.phase == "roll":
            g = g.roll(g.roller, script[turn % len(script)])
            turn += 1
        else:
            assert g.phase == "move" and g.roller in ("box", "c1")  # the captain never changes
            g = g.move(g.roller, list(g.legal_plays()[0].steps))
    res = check_end(g)
    assert res.ending == "bearoff" and len({c.points for c in res.cubes}) == 1
    points = res.cubes[0].points
    assert abs(points) == 1
    assert dict(res.scores) == {"box": -4 * points, "c1": points, "c2": points, "c3": points, "c4": points}
    assert res.box_holds == (points < 0)
