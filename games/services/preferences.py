"""Settings that follow the player: stored on the profile (``Player.settings``), not only in
one browser. Every page that needs them reads :func:`settings_for`; the settings page and
the game page's options write through :func:`player_update_settings`.

==============  =========================================  ==========
name            values                                     default
==============  =========================================  ==========
home            ``right`` / ``left`` (your home board)     ``right``
numbers         ``mine`` (from your side) / ``white``      ``mine``
animation       ``off`` / ``fast`` / ``normal``            ``normal``
autoroll        roll automatically (never double)          false
forced          play forced moves automatically            false
confirm         confirm a play before it is sent           true
sound           sounds (your turn, moves, dice)            true
theme           ``auto`` / ``light`` / ``dark``            ``auto``
==============  =========================================  ==========
"""

from __future__ import annotations

from django.db import transaction

from games.errors import BadRequest
from games.models import Player
from games.services.players import require_active

CHOICES = {
    "home": ("right", "left"),
    "numbers": ("mine", "white"),
    "animation": ("normal", "fast", "off"),
    "theme": ("auto", "light", "dark"),
}
FLAGS = {"autoroll": False, "forced": False, "confirm": True, "sound": True}
DEFAULTS = {**{name: values[0] for name, values in CHOICES.items()}, **FLAGS}


def settings_for(player: Player | None) -> dict:
    """Every setting of ``player`` (defaults where unset; all defaults for a visitor)."""
    stored = (player.settings or {}) if player is not None else {}
    return {name: stored.get(name, default) for name, default in DEFAULTS.items()}


def check_settings(changes) -> dict:
    """The valid ``changes``, or ``BadRequest("bad_setting")`` naming the first bad one."""
    if not isinstance(changes, dict):
        raise BadRequest("bad_setting", "Settings are an object of names and values.")
    for name, value in changes.items():
        if name in CHOICES:
            if value not in CHOICES[name]:
                raise BadRequest("bad_setting", f"'{str(name)[:20]}' must be one of {', '.join(CHOICES[name])}.")
        elif name in FLAGS:
            if type(value) is not bool:
                raise BadRequest("bad_setting", f"'{str(name)[:20]}' must be true or false.")
        else:
            raise BadRequest("bad_setting", f"Unknown setting {str(name)[:20]!r}: use {', '.join(DEFAULTS)}.")
    return changes


def player_update_settings(*, player: Player, changes: dict) -> dict:
    """Change some of ``player``'s settings; a refused change changes nothing. Returns them all."""
    require_active(player)
    changes = check_settings(changes)
    with transaction.atomic():
        locked = Player.objects.select_for_update(no_key=True, of=("self",)).get(pk=player.pk)
        locked.settings = {**settings_for(locked), **changes}
        locked.save(update_fields=["settings"])
    player.settings = locked.settings
    return settings_for(player)
