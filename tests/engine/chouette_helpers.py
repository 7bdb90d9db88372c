"""Builders and a random driver shared by the chouette tests.

Players are the strings of PLAYERS; the first is the box, the second the
captain. The box plays White (24 -> 1), the team Black (1 -> 24).
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace

import pytest

from games.engine import IllegalAction, IllegalPlay, Position
from games.engine.chouette import ChouetteGame, ChouetteRules
from games.engine.chouette.rules import CUBE_WINDOW, ROLL
from tests.engine.game_helpers import position

PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")
BOX, CAPTAIN, CREW1, CREW2, CREW3 = PLAYERS[:5]


def new_game(n: int = 3, rules: ChouetteRules | None = None, pos: Position | None = None) -> ChouetteGame:
    return ChouetteGame.new(rules or ChouetteRules(), PLAYERS[0], PLAYERS[1:n], position=pos)


def team_window(n: int = 3, rules: ChouetteRules | None = None) -> ChouetteGame:
    """The box won the opening 3-1 and made its 5-point: the team's cube window is open."""
    g = new_game(n, rules).opening_roll(box_die=3, team_die=1)
    g = g.move(BOX, [{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    assert g.phase == CUBE_WINDOW and g.on_roll == "team"
    return g


def box_window(n: int = 3, rules: ChouetteRules | None = None) -> ChouetteGame:
    """The team won the opening 3-1 and made its 5-point (absolute 20): the box's window is open."""
    g = new_game(n, rules).opening_roll(box_die=1, team_die=3)
    g = g.move(CAPTAIN, [{"from": 17, "to": 20}, {"from": 19, "to": 20}])
    assert g.phase == CUBE_WINDOW and g.on_roll == "box"
    return g


def pass_window(g: ChouetteGame) -> ChouetteGame:
    """Everyone in the open window lets the cube decision pass."""
    while g.phase == CUBE_WINDOW:
        g = g.no_double(g.window_decider())
    return g


# Endings: the side on roll bears its last checker off with a 2-1.
# White (the box) has one checker on its 1-point; Black (the team) on absolute 24.
TEAM_ONE_OFF = {19: 14}  # the team has a checker off: single
TEAM_NONE_OFF = {19: 8, 20: 7}  # none off: gammon
TEAM_IN_BOX_HOME = {19: 14, 3: 1}  # none off, one in the box's home board: backgammon
BOX_ONE_OFF = {6: 14}
BOX_NONE_OFF = {6: 8, 5: 7}


def box_to_finish(n: int = 3, team=TEAM_ONE_OFF, rules=None, **changes) -> ChouetteGame:
    """The box's cube window, the box one roll from bearing off its last checker."""
    g = new_game(n, rules, position({1: 1}, team, turn="white"))
    return replace(g, phase=CUBE_WINDOW, first_mover="box", turn_number=9, **changes)


def team_to_finish(n: int = 3, box=BOX_ONE_OFF, rules=None, **changes) -> ChouetteGame:
    """The team's cube window, the team one roll from bearing off its last checker."""
    g = new_game(n, rules, position(box, {24: 1}, turn="black"))
    return replace(g, phase=CUBE_WINDOW, first_mover="box", turn_number=9, **changes)


def finish(g: ChouetteGame) -> ChouetteGame:
    """Pass the window, roll 2-1 and bear the last checker off."""
    g = pass_window(g._advance())  # (_advance: states built with replace() may need it)
    assert g.phase == ROLL
    g = g.roll(g.roller, (2, 1))
    src = 1 if g.on_roll == "box" else 24
    return g.move(g.roller, [{"from": src, "to": "off"}])


def refused(state: ChouetteGame, action, code: str):
    """``action(state)`` must raise IllegalAction ``code`` and leave ``state`` unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as info:
        action(state)
    assert info.value.code == code, info.value.message
    assert state == before
    return info.value


# -- a random driver: only actions the engine says are allowed ---------------------------
OPTIONAL = ("propose_settlement", "accept_settlement", "reject_settlement", "withdraw_settlement", "leave")


def random_action(g: ChouetteGame, rng: random.Random, *, p_double=0.12, p_offer=0.02, p_leave=0.0005):
    """One ``(action, player, fields)`` the game allows now, chosen at random."""
    if g.phase == "opening":
        return "opening_roll", None, {"box_die": rng.randint(1, 6), "team_die": rng.randint(1, 6)}
    present = [p for p in g.players if p not in g.departed]
    r = rng.random()
    if r < p_leave:
        return "leave", rng.choice(present), {}
    answering = [p for p in present if g.offers_to(p)]
    if answering and rng.random() < 0.3:  # someone answers an open offer
        p = rng.choice(answering)
        offer = rng.choice(g.offers_to(p))
        return ("accept_settlement" if rng.random() < 0.6 else "reject_settlement"), p, {"cube": offer.cube}
    if r < p_leave + p_offer:
        proposers = [p for p in present if g.offers_by(p)]
        if proposers and rng.random() < 0.3:
            p = rng.choice(proposers)
            return "withdraw_settlement", p, {"cube": rng.choice(g.offers_by(p)).cube}
        p = rng.choice(present)
        if "propose_settlement" in g.allowed_actions(p):
            c = rng.choice(g.cubes_of(p))
            return "propose_settlement", p, {"amount": rng.randint(-c.value, c.value), "cubes": [c.member]}
    item = rng.choice(g.pending())
    p, reason = item.player, item.reason
    if reason == "roll":
        return "roll", p, {"dice": (rng.randint(1, 6), rng.randint(1, 6))}
    if reason == "move":
        return "move", p, {"steps": [s.to_dict() for s in rng.choice(g.legal_plays()).steps]}
    if reason == "double_decision":
        if rng.random() < p_double:
            cubes = list(item.cubes)
            if rng.random() < 0.5:
                return "double", p, {}
            return "double", p, {"cubes": rng.sample(cubes, rng.randint(1, len(cubes)))}
        return "no_double", p, {}
    cube = rng.choice(item.cubes) if item.cubes else None
    if reason == "double_answer":
        choices = ["take", "take", "drop"] + (["beaver"] if g.can_beaver(cube) else [])
        return rng.choice(choices), p, {"cube": cube}
    if reason == "raccoon_decision":
        return rng.choice(["raccoon", "no_raccoon"]), p, {"cube": cube}
    if reason == "buy_decision":
        return rng.choice(["buy", "no_buy"]), p, {"cube": cube}
    if reason == "last_member":
        return rng.choice(["buy_all", "drop"]), p, {}
    raise AssertionError(f"unexpected pending {item}")


def plausible_fields(g: ChouetteGame, action: str) -> dict:
    """Well-formed fields for ``action`` (to check that what is not allowed is refused)."""
    cube = g.team[0]
    return {
        "opening_roll": {"box_die": 2, "team_die": 1},
        "double": {},
        "take": {"cube": cube}, "drop": {"cube": cube}, "beaver": {"cube": cube},
        "raccoon": {"cube": cube}, "no_raccoon": {"cube": cube},
        "buy": {"cube": cube}, "no_buy": {"cube": cube},
        "roll": {"dice": (2, 1)}, "move": {"steps": []},
        "propose_settlement": {"amount": 0},
        "accept_settlement": {}, "reject_settlement": {}, "withdraw_settlement": {},
    }.get(action, {})


def refuses_the_rest(g: ChouetteGame, player, actions) -> None:
    """Every action of ``actions`` not in ``allowed_actions(player)`` is refused."""
    allowed = set(g.allowed_actions(player))
    for action in actions:
        if action in allowed or action == "timeout":
            continue
        with pytest.raises((IllegalAction, IllegalPlay)):
            g.apply(action, player, **plausible_fields(g, action))
