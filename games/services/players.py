"""Player profiles: creation, suspension, statistics."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from ..errors import BadRequest, Forbidden
from ..models import Player


def player_for_user(user) -> Player:
    """The user's player profile, created on first use."""
    try:
        return user.player
    except Player.DoesNotExist:
        pass
    player, _ = Player.objects.get_or_create(user=user, defaults={"display_name": user.get_username()[:40]})
    return player


@transaction.atomic
def player_register(*, username: str, password: str | None, display_name: str = "", is_bot: bool = False,
                    email: str = "") -> Player:
    """Create a user and its player profile (a bot has no usable password)."""
    User = get_user_model()
    username = (username or "").strip()
    if not username or len(username) > 150:
        raise BadRequest("bad_username", "A name of 1 to 150 characters is required.")
    if User.objects.filter(username__iexact=username).exists():
        raise BadRequest("name_taken", f"The name {username!r} is taken.")
    user = User(username=username, email=email)
    if password:
        user.set_password(password)
    else:
        user.set_unusable_password()
    try:
        with transaction.atomic():  # two sign-ups racing for one name: the loser is told so
            user.save()
    except IntegrityError:
        raise BadRequest("name_taken", f"The name {username!r} is taken.") from None
    return Player.objects.create(user=user, display_name=(display_name or username)[:40], is_bot=is_bot)


def require_active(player: Player) -> None:
    """Refuse a suspended (or missing) player."""
    if player is None:
        raise Forbidden("not_logged_in", "Log in to play.")
    if player.suspended:
        raise Forbidden("suspended", "Your account is suspended.")
