"""Player profiles: creation, suspension, statistics."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games.errors import BadRequest, Forbidden
from games.models import Player
from games.text import clean_name, name_key
from django.utils.translation import gettext


def player_for_user(user) -> Player:
    """The user's player profile, created on first use."""
    try:
        return user.player
    except Player.DoesNotExist:
        pass
    name = user.get_username()[:40]
    key = name_key(name)
    if Player.objects.filter(name_key=key).exists():
        key = None  # a user made outside sign-up (createsuperuser) whose name is taken: not reserved
    try:
        with transaction.atomic():
            player, _ = Player.objects.get_or_create(user=user, defaults={"display_name": name, "name_key": key})
    except IntegrityError:  # the name was taken meanwhile, or the profile created by another request
        player, _ = Player.objects.get_or_create(user=user, defaults={"display_name": name})
    return player


def checked_names(*, username, display_name: str = "", reserved_ok: bool = False, player: Player | None = None) -> tuple:
    """``(username, display name, name key)`` once they pass the name rules, for a sign-up and
    for a guest who claims their account (``player``: the guest, whose own names do not count
    as taken): :func:`games.text.clean_name` (``bad_username``, ``bad_name``) and unique
    usernames (case-insensitive) and display names (NFKC + case folding): ``name_taken``."""
    User = get_user_model()
    username = (username or "").strip() if isinstance(username, str) else ""
    if not username or len(username) > 150:
        raise BadRequest("bad_username", gettext("A name of 1 to 150 characters is required."))
    if not display_name:  # the display name is the username: refused as the username it is
        username = clean_name(username, field="username", code="bad_username", max_length=150, reserved_ok=reserved_ok)
    display = clean_name(display_name or username[:40], reserved_ok=reserved_ok)
    username = clean_name(username, field="username", code="bad_username", max_length=150, reserved_ok=reserved_ok)
    key = name_key(display)
    users, players = User.objects.filter(username__iexact=username), Player.objects.filter(name_key=key)
    if player is not None:
        users, players = users.exclude(pk=player.user_id), players.exclude(pk=player.pk)
    if users.exists():
        raise BadRequest("name_taken", gettext("The name %(username)s is taken.") % {"username": repr(username)})
    if players.exists():
        raise BadRequest("name_taken", gettext("The display name %(display)s is taken (or one that looks the same).")
                % {"display": repr(display)})
    return username, display, key


@transaction.atomic
def player_register(*, username: str, password: str | None, display_name: str = "", is_bot: bool = False,
                    email: str = "", reserved_ok: bool = False) -> Player:
    """Create a user and its player profile (a bot has no usable password).

    The display name (the username when empty) goes through :func:`games.text.clean_name`
    (``bad_name``: NUL, controls, bidirectional and zero-width characters, the marks of the
    site's own players unless ``reserved_ok``, for the house bots only) and must be unique
    after NFKC and case folding (``name_taken``)."""
    User = get_user_model()
    username, display, key = checked_names(username=username, display_name=display_name, reserved_ok=reserved_ok)
    user = User(username=username, email=email)
    if password:
        user.set_password(password)
    else:
        user.set_unusable_password()
    try:
        with transaction.atomic():  # two sign-ups racing for one name: the loser is told so
            user.save()
            return Player.objects.create(user=user, display_name=display, name_key=key, is_bot=is_bot)
    except IntegrityError:
        raise BadRequest("name_taken", gettext("The name %(display)s is taken.") % {"display": repr(display)}) from None


def require_active(player: Player) -> None:
    """Refuse a suspended (or missing) player."""
    if player is None:
        raise Forbidden("not_logged_in", gettext("Log in to play."))
    if player.suspended:
        raise Forbidden("suspended", gettext("Your account is suspended."))
