"""Authentication that knows about suspended players.

A suspended player (``Player.suspended``) can neither log in nor keep a
session: :class:`ActivePlayerBackend` refuses them both at login
(``user_can_authenticate``) and on every later request (``get_user``, which
Django's session middleware and Channels' websocket auth both call), and
:class:`SuspendedPlayerMiddleware` then ends the session so it does not linger.
``games.services.player_set_suspended`` also deletes the player's sessions;
these are the belt to its braces.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from django.contrib.auth import SESSION_KEY, get_user_model, logout
from django.contrib.auth.backends import ModelBackend

from games.models import Player

SUSPENDED_MESSAGE = gettext_lazy("This account is suspended.")


def is_suspended(user) -> bool:
    """True when ``user`` has a player profile that is suspended."""
    try:
        return bool(user.player.suspended)
    except Player.DoesNotExist:  # no profile yet: nothing to refuse
        return False


class ActivePlayerBackend(ModelBackend):
    """Django's model backend, refusing inactive users and suspended players."""

    def user_can_authenticate(self, user) -> bool:
        return super().user_can_authenticate(user) and not is_suspended(user)

    def get_user(self, user_id):
        UserModel = get_user_model()
        try:
            user = UserModel._default_manager.select_related("player").get(pk=user_id)
        except (UserModel.DoesNotExist, ValueError, TypeError):
            return None
        return user if self.user_can_authenticate(user) else None


class SuspendedPlayerMiddleware:
    """Log out a session whose user may no longer be logged in.

    Goes after ``AuthenticationMiddleware`` and ``MessageMiddleware``. When the
    session names a user but ``request.user`` is anonymous (the backend refused
    them: suspended, deactivated or deleted), or the user is a suspended player,
    the session is flushed and a suspended player is told why.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        session = getattr(request, "session", None)
        if session is not None and SESSION_KEY in session:
            user_id = session[SESSION_KEY]
            user = request.user
            if not user.is_authenticated or is_suspended(user):
                suspended = Player.objects.filter(user_id=user_id, suspended=True).exists()
                logout(request)
                if suspended:
                    messages.error(request, gettext("This account is suspended. You have been logged out."), fail_silently=True)
        return self.get_response(request)


class PlayerLanguageMiddleware:
    """Speak the language a signed-in player chose in their settings (``language``), whatever
    the browser says; goes after ``AuthenticationMiddleware`` (and Django's
    ``LocaleMiddleware``, which answers for everyone else: the cookie, then Accept-Language)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        player = getattr(user, "player", None) if user is not None and user.is_authenticated else None
        chosen = (player.settings or {}).get("language") if player is not None else None
        if chosen and chosen in dict(settings.LANGUAGES):
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        return self.get_response(request)
