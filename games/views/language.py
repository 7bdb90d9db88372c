"""``POST /language/``: the switcher on every page. Django's own ``set_language`` keeps the
choice in the language cookie (and redirects to ``next``); a signed-in player's choice is also
kept on the profile (``services.player_update_settings``), so it follows them to any browser."""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from games import services
from games.errors import ServiceError
from games.selectors.players import player_of


@require_POST
def language(request):
    code = request.POST.get("language", "")
    if code not in dict(settings.LANGUAGES):
        return JsonResponse({"error": {"code": "bad_language", "message": f"Choose one of "
                                       f"{', '.join(c for c, _ in settings.LANGUAGES)}."}}, status=400)
    player = player_of(request.user)
    if player is not None and not player.is_bot:
        try:
            services.player_update_settings(player=player, changes={"language": code})
        except ServiceError as exc:
            return JsonResponse({"error": {"code": exc.code, "message": exc.message}}, status=exc.status)
    return set_language(request)
