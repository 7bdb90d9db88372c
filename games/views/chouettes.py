"""The chouette's pages (thin: reads through ``games.selectors.chouettes``, writes through the
services): the list of open chouettes with the new-chouette form, a table's page, the
invite link, the history and the ``.txt`` log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games.selectors import chouettes as chouette_view, preferences, visibility
from games import conf, services
from games.errors import ServiceError
from games.models import Chouette, ChouetteSeat, Player
from games.views.pages import _bot_levels
from games.selectors.players import player_of

BOOL_OPTIONS = {"jacoby": "jacoby", "beaver": "beaver", "raccoon": "raccoon",
                "full_consultation": "fullConsultation", "captain_buys": "captainBuys",
                "last_member_buys": "lastMemberBuys", "settlements": "settlements"}


def _viewable(request, chouette_id) -> tuple:
    """The chouette if the visibility rule lets this viewer see it (else the 404 of a missing one)."""
    return visibility.chouette_for_viewer_or_404(request.user, chouette_id), player_of(request.user)


def chouette_list(request):
    """``GET /chouettes/?page=N``: open chouettes (seats, invite link), tables with a free seat
    first, a page at a time, and the form to open one."""
    lobby = chouette_view.open_chouettes_page(request.GET.get("page") or 1)
    return render(request, "chouettes.html", {"chouettes": lobby["tables"], "lobby": lobby,
                                              "bot_levels": _bot_levels()})


@login_required
@require_POST
def chouette_new(request):
    """``POST /chouettes/new/``: open a chouette with the form's options."""
    post = request.POST
    options = {key: post.get(name) in ("on", "1", "true") for name, key in BOOL_OPTIONS.items()}
    limit = (post.get("cube_limit") or "").strip()
    try:  # as the new-match form: empty, 0 or "none" is no limit; the engine checks the rest (bad_cube_limit)
        options["cubeLimit"] = None if limit in ("", "0", "none") else int(limit) if limit.isascii() else -1
    except ValueError:
        options["cubeLimit"] = -1
    try:
        seconds = int(post.get("decision_seconds") or 60)
    except ValueError:
        seconds = -1
    try:
        c = services.chouette_create(player=player_of(request.user), options=options, private=post.get("private") == "on",
                                     decision_seconds=seconds)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("chouette_list")
    return redirect("chouette_page", chouette_id=c.pk)


def chouette_page(request, chouette_id):
    """``GET /chouettes/<id>/``: the table (board, cubes, the line, chats, dialogs)."""
    c, player = _viewable(request, chouette_id)
    invite = (request.build_absolute_uri(reverse("chouette_invite", args=[c.invite_code]))
              if visibility.may_see_chouette_invite(request.user, c) else None)
    boot = {"chouette": c.pk, "you": player.pk if player else None, "invite": invite, "levels": _bot_levels(),
            "animation": preferences.settings_for(player)["animation"], "settings": preferences.settings_for(player),
            "loggedIn": player is not None, "nextGameDelay": conf.value("GAMES_NEXT_GAME_DELAY")}
    return render(request, "chouette.html", {"chouette": c, "boot": boot})


@require_http_methods(["GET", "POST"])
def chouette_invite(request, invite_code):
    """``/chouettes/join/<code>/``: the invite link; POST sits the visitor at the table."""
    c = get_object_or_404(Chouette.objects.select_related("created_by"), invite_code=invite_code)
    player = player_of(request.user)
    seated = player is not None and ChouetteSeat.objects.filter(chouette=c, player=player, active=True).exists()
    if request.method == "POST" and player is not None and not seated:
        try:
            services.chouette_join(player=player, invite_code=invite_code)
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("chouette_invite", invite_code=invite_code)
        return redirect("chouette_page", chouette_id=c.pk)
    if seated:
        return redirect("chouette_page", chouette_id=c.pk)
    return render(request, "chouette_join.html", {"chouette": c, "entry": chouette_view.lobby_entry(c)})


def chouette_history(request, chouette_id):
    """``GET /chouettes/<id>/history/``: every game with each member's cube and result."""
    c, _player_ = _viewable(request, chouette_id)
    session = c.state and chouette_view.current(c)[1]
    who = chouette_view.names(c)
    scores = [(who.get(p, p), pts) for p, pts in session.scores] if session else []
    return render(request, "chouette_history.html", {"chouette": c, "games": chouette_view.history(c),
                                                     "scores": scores})


def chouette_log(request, chouette_id):
    """``GET /chouettes/<id>/log.txt``: the session as text a person can read."""
    c, _player_ = _viewable(request, chouette_id)
    response = HttpResponse(chouette_view.text_log(c), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="chouette-{c.pk}.txt"'
    return response
