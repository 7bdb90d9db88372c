"""A house bot's decisions in a chouette: pure (the engine's ChouetteGame in, one action out).

Checker plays come from the bot's level (:func:`games.bots.choose_play`); cube decisions
from a race-based estimate of the bot's side's chances (``heuristics.win_probability``):
double at 68% or more, take at 25% or more, buy a dropped cube (rule 3) at 50% or more,
buy all (rule 4) at 35% or more, never raccoon. Settlement offers are left alone (they
never hold the game up).
"""

from __future__ import annotations

from games.engine.chouette import BOX_COLOR, TEAM_COLOR
from .heuristics import win_probability

DOUBLE_AT, TAKE_AT, BUY_AT, BUY_ALL_AT = 0.68, 0.25, 0.50, 0.35


def _chances(game, player) -> float:
    """The bot's side's chances: the box's, or the team's."""
    return win_probability(game.position, BOX_COLOR if player == game.box else TEAM_COLOR)


def decide(level: str, game, player) -> tuple:
    """``(action, fields)`` for ``player``, the first of his pending decisions (None: none)."""
    from . import choose_play

    for p in game.pending():
        if p.player != player:
            continue
        chances = _chances(game, player) if p.reason != "move" else 0.0
        if p.reason == "move":
            play = choose_play(level, game.position, game.dice, salt=f"chouette:{player}")
            return "move", {"steps": [s.to_dict() for s in play.steps]}
        if p.reason == "roll":
            return "roll", {}
        if p.reason == "double_decision":
            return ("double", {}) if chances >= DOUBLE_AT else ("no_double", {})
        if p.reason == "double_answer":
            action = "take" if chances >= TAKE_AT else "drop"
            return action, {"cube": p.cubes[0]}
        if p.reason == "raccoon_decision":
            return "no_raccoon", {"cube": p.cubes[0]}
        if p.reason == "buy_decision":
            return ("buy" if chances >= BUY_AT else "no_buy"), {"cube": p.cubes[0]}
        if p.reason == "last_member":
            return ("buy_all", {}) if chances >= BUY_ALL_AT else ("drop", {})
    return None


__all__ = ["decide"]
