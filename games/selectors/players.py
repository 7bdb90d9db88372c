"""Reads of players: the player of a signed-in user, the level of a house bot."""

from __future__ import annotations

from games.models import HouseBot, Player


def player_of(user) -> Player | None:
    """The player profile of ``user`` (None for a visitor or a user without one)."""
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


def bot_level(player) -> str | None:
    """The level of a house bot player (from the lock query's join), else None."""
    if player is None:
        return None
    try:
        return player.housebot.level
    except HouseBot.DoesNotExist:
        return None
