"""GNU Backgammon's ids after each event of a game (pure: the event list in, no database)."""

from __future__ import annotations

from games.engine.gnubgid import state_ids
from games.engine.replay import replay_steps

__all__ = ["events_position_ids"]


def events_position_ids(events: list, *, length: int = 0) -> list:
    """``[{"version", "type", "positionId", "matchId", "gnubgId"}, ...]`` after each of one
    game's events, as gnubg shows the same moment of the imported match (the score is the
    one in ``game_start``, the match length ``length`` unless ``game_start`` names it)."""
    start = next((e["payload"] for e in events if e["type"] == "game_start"), {})
    score = tuple(start.get("score", (0, 0)))
    length = start.get("matchLength", length)
    out = []
    rolled = None  # the dice out before the game ended (a resignation after a roll keeps them)
    for event, state in replay_steps(events):
        ids = state_ids(state, match_length=length, score=score, rolled=rolled)
        if not state.is_over:
            rolled = state.dice
        out.append({"version": event.get("version"), "type": event["type"], **ids})
    return out
