"""The rules engine: pure Python, standard library only.

No Django, no I/O, no clock, no randomness: dice are inputs. Everything a
server, a bot or a test needs to know about the rules is here.

>>> from games.engine import Position, legal_plays, format_play
>>> start = Position.initial()
>>> plays = legal_plays(start, (6, 5))
>>> len(plays), "24/13" in {format_play(start, p) for p in plays}
(7, True)
"""

from .errors import (
    EngineError,
    IdError,
    IllegalAction,
    IllegalPlay,
    InvalidPlay,
    InvalidPosition,
    NotationError,
)
from .game import (
    CUBE_OFFERED,
    MOVE,
    OPENING,
    OVER,
    RESIGN_OFFERED,
    TURN,
    GameResult,
    GameRules,
    GameState,
)
from .match import UNLIMITED, MatchRules, MatchState
from .moves import (
    BAR,
    OFF,
    Play,
    Step,
    apply_play,
    check_play,
    legal_move_lists,
    legal_plays,
    plays_json,
)
from .notation import format_play, parse_play
from .position import BLACK, WHITE, Position, other
from .scoring import points_for, win_kind
from .chouette import ChouetteGame, ChouetteResult, ChouetteRules, ChouetteSession, Seating, seat

__all__ = [
    "EngineError", "IdError", "IllegalAction", "IllegalPlay", "InvalidPlay", "InvalidPosition", "NotationError",
    "OPENING", "TURN", "MOVE", "CUBE_OFFERED", "RESIGN_OFFERED", "OVER",
    "GameResult", "GameRules", "GameState", "UNLIMITED", "MatchRules", "MatchState",
    "BAR", "OFF", "Play", "Step", "apply_play", "check_play", "legal_move_lists", "legal_plays", "plays_json",
    "format_play", "parse_play", "BLACK", "WHITE", "Position", "other", "points_for", "win_kind",
    "ChouetteGame", "ChouetteResult", "ChouetteRules", "ChouetteSession", "Seating", "seat",
]
