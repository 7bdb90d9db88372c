"""Reads around the board: the chat of a match and who is at the table (presence)."""

from __future__ import annotations

from datetime import timedelta

from games import conf
from games.models import ChatMessage, Connection, Match
from games.selectors.players import bot_level


def absence_grace() -> timedelta:
    return timedelta(seconds=conf.value("GAMES_ABSENCE_GRACE"))


def chat_dict(message: ChatMessage) -> dict:
    return {"id": message.pk, "room": message.room, "name": message.name, "author": message.author_id,
            "text": message.text, "at": message.created_at.isoformat()}


def chat_recent(match: Match, room: str, limit: int = 50) -> list:
    lines = ChatMessage.objects.filter(match=match, room=room).order_by("-id")[:limit]
    return [chat_dict(m) for m in reversed(lines)]


def presence_dict(match: Match) -> dict:
    """Who is connected, and how many spectators are watching. House bots are always there."""
    roles = list(Connection.objects.filter(match=match).values_list("role", flat=True))

    def seat(color):
        if bot_level(match.player_of(color)) is not None:
            return {"connected": True, "awaySince": None, "bot": True}
        away = match.white_away_since if color == "white" else match.black_away_since
        return {"connected": color in roles, "awaySince": away.isoformat() if away else None}

    return {"white": seat("white"), "black": seat("black"), "spectators": roles.count("spectator"),
            "claimAfter": int(absence_grace().total_seconds())}
