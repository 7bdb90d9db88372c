"""The single write path of the site.

Consumers, views, the bot API, admin actions and bots all call these functions;
nothing else writes game state. Each function is one transaction with the
match and game rows locked, raises a typed error (``games.errors`` or the
engine's) with a stable code when it refuses, and publishes its events only
after commit (``games.events``).
"""

from .agents import (
    agent_register,
    house_bot,
    house_bot_level,
    match_vs_bot,
    queue_join,
    queue_leave,
    queue_status,
)
from .dice import dice_for, use_dice
from .games import (
    game_abort,
    game_beaver,
    game_double,
    game_drop,
    game_move,
    game_raccoon,
    game_resign,
    game_resign_accept,
    game_resign_offer,
    game_resign_reject,
    game_roll,
    game_take,
)
from .matches import match_abort, match_create, match_join, match_leave
from .players import player_for_user, player_register, player_set_suspended
from .realtime import (
    chat_post,
    chat_recent,
    match_claim,
    match_rematch,
    presence_dict,
    presence_join,
    presence_leave,
    sweep,
)

__all__ = [
    "agent_register", "house_bot", "house_bot_level", "match_vs_bot", "queue_join", "queue_leave",
    "queue_status",
    "dice_for", "use_dice",
    "game_abort", "game_beaver", "game_double", "game_drop", "game_move", "game_raccoon", "game_resign",
    "game_resign_accept", "game_resign_offer", "game_resign_reject", "game_roll", "game_take",
    "match_abort", "match_create", "match_join", "match_leave",
    "player_for_user", "player_register", "player_set_suspended",
    "chat_post", "chat_recent", "match_claim", "match_rematch", "presence_dict", "presence_join",
    "presence_leave", "sweep",
]
