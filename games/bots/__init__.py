"""Computer opponents: pure strategies (engine state in, decision out).

Levels, weakest first (see :data:`LEVELS`): ``random``, ``beginner`` (pubeval +
heavy noise), ``casual`` / ``intermediate`` / ``advanced`` (bgsage 0-ply with
decreasing noise), ``expert`` (bgsage 1-ply), ``world_class`` (bgsage 2-ply).
Without bgsage (its wheel needs an AVX2 CPU) every level falls back to pubeval.

>>> from games.engine import Position, format_play
>>> pos = Position.initial()
>>> format_play(pos, get_bot("world_class").choose_play(pos, (3, 1)))
'8/5 6/5'

Module functions take the level first::

    choose_play("expert", position, (6, 1))
    should_double("expert", game_state, match_state, "white")
    take_decision("expert", game_state, match_state, "black")   # "take" | "drop" | "beaver"
    decide("expert", game_state.to_dict(), match_state.to_dict())
"""

from .decide import decide
from .levels import DEFAULT_LEVEL, LEVELS, LEVELS_BY_NAME, Level, get_level
from .strategy import BEAVER, DROP, TAKE, Bot, get_bot


def choose_play(level, state_or_position, dice=None, match_state=None, salt: str = ""):
    """The :class:`~games.engine.Play` the bot at ``level`` makes."""
    return get_bot(level).choose_play(state_or_position, dice, match_state, salt)


def should_double(level, state, match_state, color: str) -> bool:
    return get_bot(level).should_double(state, match_state, color)


def take_decision(level, state, match_state, color: str) -> str:
    return get_bot(level).take_decision(state, match_state, color)


def accept_resignation(level, state, match_state, color: str) -> bool:
    return get_bot(level).accept_resignation(state, match_state, color)


__all__ = [
    "LEVELS", "LEVELS_BY_NAME", "DEFAULT_LEVEL", "Level", "get_level", "Bot", "get_bot",
    "choose_play", "should_double", "take_decision", "accept_resignation", "decide",
    "TAKE", "DROP", "BEAVER",
]
