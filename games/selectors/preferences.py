"""Settings that follow the player: stored on the profile (``Player.settings``), not only in
one browser. Every page that needs them reads :func:`settings_for`; the settings page and
the game page's options write through ``games.services.player_update_settings``.

===============  =======================================================================================  ===========
name             values                                                                                   default
===============  =======================================================================================  ===========
home             ``right`` / ``left`` (your home board)                                                   ``right``
numbers          ``mine`` (from your side) / ``white``                                                    ``mine``
animation        ``auto`` (normal; off with reduced motion) / ``normal`` / ``fast`` / ``slow`` / ``off``  ``auto``
autoroll         roll automatically (never double)                                                        false
forced           play forced moves automatically                                                          false
confirm          confirm a play before it is sent                                                         true
sound            sounds (your turn, moves, dice)                                                          true
theme            ``auto`` / ``light`` / ``dark``                                                          ``auto``
board            ``classic`` (wood) / ``green`` (tournament) / ``contrast`` (high contrast)               ``classic``
language         ``""`` (the browser's) or a code of ``settings.LANGUAGES`` (docs/TRANSLATING.md)         ``""``
mail_turn        e-mail "your turn" (correspondence)                                                      true
mail_low         e-mail "your time is running low"                                                        true
mail_accepted    e-mail "an opponent accepted your invitation" (correspondence)                           true
mail_tournament  e-mail "your tournament match is ready"                                                  true
digest           one daily digest e-mail instead of one per notice ("your turn", "accepted")              false
push             the same notices by Web Push (browsers)                                                  true
===============  =======================================================================================  ===========

The e-mail notices go only to a verified address (``games.services.notices``).
"""

from __future__ import annotations

from django.conf import settings

from games.models import Player


CHOICES = {
    "home": ("right", "left"),
    "numbers": ("mine", "white"),
    "animation": ("auto", "normal", "fast", "slow", "off"),
    "theme": ("auto", "light", "dark"),
    "board": ("classic", "green", "contrast"),
    "language": ("", *(code for code, _ in settings.LANGUAGES)),
}


FLAGS = {"autoroll": False, "forced": False, "confirm": True, "sound": True, "mail_turn": True, "mail_low": True,
         "mail_accepted": True, "mail_tournament": True, "digest": False, "push": True}


DEFAULTS = {**{name: values[0] for name, values in CHOICES.items()}, **FLAGS}


def settings_for(player: Player | None) -> dict:
    """Every setting of ``player`` (defaults where unset; all defaults for a visitor)."""
    stored = (player.settings or {}) if player is not None else {}
    return {name: stored.get(name, default) for name, default in DEFAULTS.items()}
