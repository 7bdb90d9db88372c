"""The worker entry point: plain dicts in, one action out.

``decide`` is a top-level function of plain data, so a runner can ship it to a
process pool (``pool.apply_async(decide, (level, game.to_dict(), match.to_dict()))``).
It acts for the state's actor (the colour expected to act next).
"""

from __future__ import annotations

from games.engine import CUBE_OFFERED, MOVE, RESIGN_OFFERED, TURN, GameState, MatchState

from .strategy import get_bot


def decide(level, game_state_dict: dict, match_state_dict: dict | None = None) -> dict:
    """What the bot at ``level`` does now, for the state's actor.

    Returns ``{"action": "move", "moves": [{"from":..,"to":..}, ...]}`` in the
    ``move`` phase; ``double`` / ``raccoon`` / ``roll`` before rolling;
    ``take`` / ``drop`` / ``beaver`` when doubled; ``accept`` / ``reject`` when
    offered a resignation; ``none`` when nobody is to act (opening roll, game
    over). Every answer also carries ``"color"`` (the actor) and ``"level"``.
    """
    state = GameState.from_dict(game_state_dict)
    match = MatchState.from_dict(match_state_dict) if match_state_dict else None
    bot = get_bot(level)
    color = state.actor
    out = {"color": color, "level": bot.level.name}
    if color is None:
        return {**out, "action": "none"}
    phase = state.phase
    if phase == MOVE:
        play = bot.choose_play(state, match_state=match)
        return {**out, "action": "move", "moves": play.to_list()}
    if phase == TURN:
        if bot.should_raccoon(state, match, color):
            return {**out, "action": "raccoon"}
        if bot.should_double(state, match, color):
            return {**out, "action": "double"}
        return {**out, "action": "roll"}
    if phase == CUBE_OFFERED:
        return {**out, "action": bot.take_decision(state, match, color)}
    if phase == RESIGN_OFFERED:
        accept = bot.accept_resignation(state, match, color)
        return {**out, "action": "accept" if accept else "reject"}
    return {**out, "action": "none"}  # pragma: no cover - every phase is handled above
