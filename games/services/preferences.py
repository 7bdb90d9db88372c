"""Changing the settings that follow the player (the names, values and defaults are in
``games.selectors.preferences``, with :func:`~games.selectors.preferences.settings_for`).
"""

from __future__ import annotations

from django.db import transaction

from games.errors import BadRequest
from games.models import Player
from games.selectors.preferences import CHOICES, DEFAULTS, FLAGS, settings_for
from games.services.players import require_active
from django.utils.translation import gettext


def check_settings(changes) -> dict:
    """The valid ``changes``, or ``BadRequest("bad_setting")`` naming the first bad one."""
    if not isinstance(changes, dict):
        raise BadRequest("bad_setting", gettext("Settings are an object of names and values."))
    for name, value in changes.items():
        if name in CHOICES:
            if value not in CHOICES[name]:
                raise BadRequest("bad_setting", gettext("'%(value)s' must be one of %(values)s.")
                        % {"value": str(name)[:20], "values": ', '.join(CHOICES[name])})
        elif name in FLAGS:
            if type(value) is not bool:
                raise BadRequest("bad_setting", gettext("'%(value)s' must be true or false.")
                        % {"value": str(name)[:20]})
        else:
            raise BadRequest("bad_setting", gettext("Unknown setting %(value)s: use %(values)s.")
                    % {"value": repr(str(name)[:20]), "values": ', '.join(DEFAULTS)})
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
