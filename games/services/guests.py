"""Guests: someone who opens an invite link plays at once, with no account.

A guest is a :class:`Player` with ``is_guest`` and a user with no usable password, named
``guest-<random>`` and shown as "Guest <4 digits>". Guests never play rated matches
(``services.matches``), chat only with their opponent (``services.social``) and have no
bot API key (keys belong to agents). A guest who signs up keeps the same player, and so
their history (:func:`guest_claim`).
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games.errors import BadRequest, Conflict
from games.models import Match, Player
from games.services.matches import match_join
from games.services.players import checked_names, player_register
from django.utils.translation import gettext


def guest_create() -> Player:
    """A new guest player (its user cannot log in with a password)."""
    for _ in range(5):
        tag = secrets.token_hex(4)
        try:
            with transaction.atomic():
                player = player_register(username=f"guest-{tag}", password=None,
                                         display_name=f"Guest {int(tag, 16) % 10000:04d}")
                player.is_guest = True
                player.save(update_fields=["is_guest"])
                return player
        except (BadRequest, IntegrityError):  # the rare clash of names: draw again
            continue
    raise Conflict("busy", gettext("Could not make a guest name: try again."))  # pragma: no cover


def guest_join(*, invite_code: str) -> tuple:
    """A new guest takes the empty seat of the match behind ``invite_code``: ``(guest, match)``.
    Refused like any join (``match_not_open``...) with nothing created."""
    with transaction.atomic():
        if not Match.objects.filter(invite_code=invite_code, status=Match.OPEN).exists():
            raise Conflict("match_not_open", gettext("This match is not waiting for an opponent."))
        guest = guest_create()
        return guest, match_join(player=guest, invite_code=invite_code)


def guest_claim(*, player: Player, username: str, password: str, display_name: str = "", email: str = "") -> Player:
    """A guest signs up: the same player (and its history) gets a name, a password and an
    account, under the sign-up's name rules (:func:`~games.services.players.checked_names`).
    Refusals: ``not_a_guest``, ``bad_username``, ``bad_name``, ``name_taken``; nothing changes."""
    if not player.is_guest:
        raise Conflict("not_a_guest", gettext("This account is not a guest's."))
    username, display, key = checked_names(username=username, display_name=display_name, player=player)
    User = get_user_model()
    try:
        with transaction.atomic():  # two claims racing for one name: the loser is told so
            user = User.objects.select_for_update().get(pk=player.user_id)
            user.username, user.email = username, email
            user.set_password(password)
            user.save()
            player.is_guest = False
            player.display_name, player.name_key = display, key
            player.save(update_fields=["is_guest", "display_name", "name_key"])
    except IntegrityError:
        player.refresh_from_db()
        raise BadRequest("name_taken", gettext("The name %(display)s is taken.") % {"display": repr(display)}) from None
    return player
