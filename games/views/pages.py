from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from games.selectors import chouettes as chouette_view, games as selectors
from games import services
from games.views.accounts import SIGNUP_BACKEND
from games.selectors.visibility import can_view_match, match_for_viewer_or_404, visible_matches
from games.errors import BadRequest, ServiceError
from games.selectors.export import match_to_mat
from games.models import Game, Match, Player
from games.jsonsafe import BadInput, parse
from games.services.preferences import CHOICES, FLAGS
from games.selectors.verify import recomputed_rolls, verify_game
from games import clock, conf, throttle
from games.selectors import preferences, turns
from games.selectors.players import player_of


def home(request):
    """The lobby: live lists over ``/ws/lobby/``, your games to resume, the new-match form,
    play the computer, open chouettes."""
    player = player_of(request.user)
    mine = selectors.running_matches(player) if player is not None else []
    return render(request, "home.html", {"bot_levels": _bot_levels(), "form": NEW_MATCH_DEFAULTS,
                                         "clock_presets": clock.preset_choices(),
                                         "my_matches": mine, "me": player,
                                         "chouettes": chouette_view.open_chouettes(10)})


# -- dice verification and .mat export (logic in games.selectors.verify / games.selectors.export) ---------------


def _json_error(status, code, message):
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _can_view(request, match) -> bool:
    return can_view_match(request.user, match)


def _not_found(kind="match"):
    return _json_error(404, f"{kind}_not_found", f"There is no such {kind}.")


def _wants_html(request) -> bool:
    return request.GET.get("format") != "json" and "text/html" in request.headers.get("Accept", "")


def game_verify(request, game_id):
    """``GET /games/<id>/verify/``: the dice check of a finished game (409 while it is played).
    A browser gets the page that explains it; ``?format=json`` (or no ``text/html`` in
    ``Accept``) the JSON."""
    game = Game.objects.select_related("match", "match__white", "match__black").filter(pk=game_id).first()
    if game is None or not _can_view(request, game.match):
        if _wants_html(request):
            raise Http404("No such game.")
        return _not_found("game")
    try:
        check = verify_game(game)
        rows = recomputed_rolls(game) if _wants_html(request) else None
    except ServiceError as exc:
        if _wants_html(request):
            return render(request, "verify.html", {"game": game, "match": game.match, "error": exc.message},
                          status=exc.status)
        return _json_error(exc.status, exc.code, exc.message)
    if rows is None:
        return JsonResponse(check)
    return render(request, "verify.html", {"game": game, "match": game.match, "check": check, "rows": rows,
                                           "json_url": f"{request.path}?format=json"})


def favicon(request):
    """``/favicon.ico``: the site's icon (``static/favicon.svg``) for browsers that ask."""
    path = finders.find("favicon.svg")
    with open(path, "rb") as icon:
        response = HttpResponse(icon.read(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def match_export_mat(request, match_id):
    """``GET /matches/<id>/export.mat``: the match as a Jellyfish .mat file (GNU Backgammon imports it)."""
    try:
        match = match_for_viewer_or_404(request.user, match_id)
    except Http404:
        return _not_found()
    try:
        text = match_to_mat(match)
    except ValueError as exc:
        return _json_error(422, "not_exportable", str(exc))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.mat"'
    return response


# -- the browser client's pages: lobby form, waiting room, invite, game, replay, profiles ------
# Thin: reads through games.selectors.games, writes through games.services.

NEW_MATCH_DEFAULTS = {"length": 5, "cube_limit": 64, "clock_delay": 0, "clock_bank": 0, "corr_bank_days": 7}


def _bot_levels() -> list:
    try:
        from games.bots.levels import level_choices

        levels = level_choices()
    except Exception:  # the bots are not installed (or not yet): no levels to offer
        return []
    # the names and blurbs are marked in games.bots.levels (gettext_noop), worded here for the page
    return [{**level, "label": gettext(level["label"]), "about": gettext(level["about"])} for level in levels]


def _int(value, default, name):
    if value in (None, ""):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BadRequest("bad_option", gettext("%(name)s must be a whole number.") % {"name": name}) from None


def _aids_options(post) -> dict:
    """The form's "rated" choice (absent: the default) and "aids" (hints and tutor, unrated only)."""
    options = {"aids": post.get("aids") in ("on", "1", "true")}
    if "rated" in post:
        options["rated"] = post.get("rated") in ("on", "1", "true")
    return options


def _clock_options(post) -> dict:
    """The form's clock: a preset (``clock_preset``) or the delay and bank typed in."""
    name = (post.get("clock_preset") or "").strip()
    if name:
        found = clock.preset(name)
        if found is None:
            raise BadRequest("bad_clock_preset", gettext("A clock is one of %(values)s.")
                             % {"values": ", ".join(clock.CLOCK_PRESETS)})
        return {"clock_delay": found[0], "clock_bank": found[1]}
    return {"clock_delay": _int(post.get("clock_delay"), 0, gettext("The delay")),
            "clock_bank": _int(post.get("clock_bank"), 0, gettext("The time bank"))}


def _match_options(post) -> dict:
    """The new-match form as ``services.match_create`` keyword arguments."""
    money = post.get("kind") == "money"
    on = lambda name: post.get(name) in ("on", "1", "true")  # noqa: E731
    limit = (post.get("cube_limit") or "").strip()
    options = {
        "length": 0 if money else _int(post.get("length"), 1, gettext("The match length")),
        "cube": on("cube"),
        "cube_limit": None if limit in ("", "0", "none") else _int(limit, 64, gettext("The cube limit")),
        "crawford": on("crawford"),
        **_clock_options(post),
        "corr_days": _int(post.get("corr_days"), 0, gettext("The days per move")),
        "private": on("private"),
        "spectators_allowed": on("spectators"),
        **_aids_options(post),
    }
    if options["corr_days"]:
        options["corr_bank_days"] = _int(post.get("corr_bank_days"), 0, gettext("The bank in days"))
    if money:
        options.update(jacoby=on("jacoby"), beaver=on("beaver"), raccoon=on("raccoon"))
    return options


@login_required
@require_POST
def match_new(request):
    """``POST /matches/new/``: open a match (``services.match_create``), then its waiting room."""
    try:
        match = services.match_create(creator=player_of(request.user), **_match_options(request.POST))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("match_waiting", match_id=match.pk)


def match_waiting(request, match_id):
    """``GET /matches/<id>/``: the waiting room with the invite link; a started match goes to its game."""
    match = match_for_viewer_or_404(request.user, match_id)
    player = player_of(request.user)
    status = selectors.match_status(match)
    if match.status != Match.OPEN and status["game"]:
        return redirect("game_page", game_id=status["game"])
    creator = player is not None and match.white_id == player.pk
    invite = request.build_absolute_uri(reverse("match_invite", args=[match.invite_code])) if creator else None
    return render(request, "waiting.html", {"match": match, "info": selectors.match_dict(match), "creator": creator,
                                            "invite": invite, "status": status})


def match_status_json(request, match_id):
    """``GET /matches/<id>/status.json``: what the waiting room polls."""
    try:
        match = match_for_viewer_or_404(request.user, match_id)
    except Http404:
        return _not_found()
    return JsonResponse(selectors.match_status(match))


@require_http_methods(["GET", "POST"])
def match_invite(request, invite_code):
    """``/join/<invite code>/``: confirm on GET, ``services.match_join`` on POST, then the game."""
    match = get_object_or_404(Match.objects.select_related("white", "black"), invite_code=invite_code)
    if request.method == "POST":
        if not request.user.is_authenticated and request.POST.get("guest") == "1":
            return _join_as_guest(request, match)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            match = services.match_join(player=player_of(request.user), invite_code=invite_code)
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("match_invite", invite_code=invite_code)
        return redirect("game_page", game_id=selectors.current_game(match).pk)
    if match.status != Match.OPEN:
        return redirect("match_waiting", match_id=match.pk)
    return render(request, "join.html", {"match": match, "info": selectors.match_dict(match),
                                         "own": player_of(request.user) is not None and match.white_id == player_of(request.user).pk})


def _join_as_guest(request, match):
    """"Play as a guest": a new guest player takes the seat and is logged in (no account).
    Guests made from one address are limited (429 ``too_many_guests``, nothing made)."""
    wait = throttle.guest_hit(request)
    if wait is not None:
        error = {"code": "too_many_guests", "message": "Too many guests from your address: try again in "
                 f"{max(1, -(-wait // 60))} minute(s), or sign up."}
        response = render(request, "join.html", {"match": match, "info": selectors.match_dict(match), "own": False,
                                                 "error": error}, status=429)
        response["Retry-After"] = str(wait)
        return response
    try:
        guest, match = services.guest_join(invite_code=match.invite_code)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("match_invite", invite_code=match.invite_code)
    login(request, guest.user, backend=SIGNUP_BACKEND)
    return redirect("game_page", game_id=selectors.current_game(match).pk)


@login_required
@require_POST
def match_join_public(request, match_id):
    """``POST /matches/<id>/join/``: the lobby's join button (public matches)."""
    try:
        match = services.match_join(player=player_of(request.user), match_id=match_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("game_page", game_id=selectors.current_game(match).pk)


@login_required
@require_POST
def play_computer(request):
    """``POST /play/computer/``: a match against a house bot (``services.match_vs_bot``)."""
    match_vs_bot = getattr(services, "match_vs_bot", None)
    if match_vs_bot is None:
        messages.error(request, gettext("Playing the computer is not available yet."))
        return redirect("home")
    try:
        match = match_vs_bot(player=player_of(request.user), level=request.POST.get("level", ""),
                             length=_int(request.POST.get("length"), 1, gettext("The match length")),
                             **_aids_options(request.POST))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("game_page", game_id=selectors.current_game(match).pk)


def _watchable_game(request, game_id):
    game = get_object_or_404(Game.objects.select_related("match", "match__white", "match__black"), pk=game_id)
    player = player_of(request.user)
    if not can_view_match(request.user, game.match):
        raise Http404("No such game.")  # the same answer as for a game that does not exist
    return game, player


def game_page(request, game_id):
    """``GET /games/<id>/``: the board; the page's script follows the socket from there."""
    game, player = _watchable_game(request, game_id)
    color = selectors.viewer_color(game.match, player)
    boot = {
        "snapshot": {"t": "snapshot", "v": game.version, "d": selectors.game_snapshot(game, color)},
        "history": selectors.game_history(game),
        "loggedIn": player is not None,
        "exportUrl": reverse("match_export_mat", args=[game.match_id]),
        "nextGameDelay": conf.value("GAMES_NEXT_GAME_DELAY"),
        "settings": preferences.settings_for(player),
        # the header's "Your turn" count without this game (its part follows the game live), and "Next match"
        "turnsElsewhere": turns.waiting_elsewhere(player, game.pk) if player is not None else None,
    }
    away = [(p, p.vacation_until) for p in (game.match.white, game.match.black)
            if p is not None and p.vacation_until is not None and p.vacation_until > clock.now()]
    return render(request, "game.html", {"game": game, "match": game.match, "boot": boot, "color": color,
                                         "time_control": boot["snapshot"]["d"]["match"]["timeControl"],
                                         "vacations": away if game.match.corr_days else []})


def game_replay(request, game_id):
    """``GET /games/<id>/replay/``: step through a finished game."""
    game, player = _watchable_game(request, game_id)
    chosen = preferences.settings_for(player)
    boot = {"loggedIn": player is not None, "settings": chosen}   # its sounds as in a game (the sound option)
    return render(request, "replay.html", {"game": game, "match": game.match, "animation": chosen["animation"],
                                           "boot": boot})


def game_replay_json(request, game_id):
    """``GET /games/<id>/replay.json``: every event with the position after it (finished games)."""
    game = Game.objects.select_related("match").filter(pk=game_id).first()
    if game is None or not _can_view(request, game.match):
        return _not_found("game")
    if game.status != Game.FINISHED:
        return _json_error(409, "game_not_over", "A game can be replayed once it is over.")
    return JsonResponse({"game": game.pk, "match": selectors.match_dict(game.match),
                         "steps": selectors.replay_positions(game)})


def player_profile(request, player_id):
    """``GET /players/<id>/``: rating and finished matches, with replay and export links."""
    player = get_object_or_404(Player, pk=player_id)
    history = []
    visible = visible_matches(request.user, selectors.match_history(player))
    for match in visible[:100]:
        history.append({"match": match, "games": list(match.games.order_by("number").values_list("pk", flat=True)),
                        "color": match.color_of(player)})
    from games.selectors.analysis import pr_history  # noqa: PLC0415

    return render(request, "profile.html", {"profile": player, "history": history, "pr": pr_history(player, request.user)})


def leaderboard(request):
    """``GET /leaderboard/``: players by rating."""
    return render(request, "leaderboard.html", {"players": selectors.leaderboard(100)})


# -- settings that follow the player (games.services.preferences) -----------------------------


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    """``/settings/``: the player's board, play and sound settings, kept on the profile."""
    player = player_of(request.user)
    if request.method == "POST":
        post = request.POST
        changes = {name: post.get(name) for name in CHOICES if name in post}
        changes.update({name: post.get(name) == "on" for name in FLAGS})
        try:
            services.player_update_settings(player=player, changes=changes)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, gettext("Settings saved: they apply wherever you log in."))
        return redirect("settings")
    from games.services.vacations import days_per_year, on_vacation, vacation_days_left  # noqa: PLC0415

    return render(request, "settings.html", {"current": preferences.settings_for(player), "choices": CHOICE_LABELS,
                                             "vacation": {"left": vacation_days_left(player), "per_year": days_per_year(),
                                                          "until": on_vacation(player)},
                                             "push_key": conf.value("GAMES_VAPID_PUBLIC_KEY")})


@login_required
@require_POST
def settings_json(request):
    """``POST /settings.json`` with ``{"name": value, ...}``: what the game page's options send."""
    try:
        changes = parse(request.body.decode("utf-8", "replace"), max_bytes=2048)
        return JsonResponse({"settings": services.player_update_settings(player=player_of(request.user), changes=changes)})
    except BadInput as exc:
        return _json_error(400, exc.code, exc.message)
    except ServiceError as exc:
        return _json_error(exc.status, exc.code, exc.message)


CHOICE_LABELS = {  # lazy: worded in the language of the request that shows them
    "home": [("right", gettext_lazy("Home board on the right")), ("left", gettext_lazy("Home board on the left"))],
    "numbers": [("mine", gettext_lazy("Point numbers from my side")), ("white", gettext_lazy("Point numbers from White's side"))],
    "animation": [("auto", gettext_lazy("As my device (normal, or off if it asks for reduced motion)")),
                  ("normal", gettext_lazy("Normal")), ("fast", gettext_lazy("Fast")), ("slow", gettext_lazy("Slow")),
                  ("off", gettext_lazy("Off"))],
    "theme": [("auto", gettext_lazy("As my device")), ("light", gettext_lazy("Light")), ("dark", gettext_lazy("Dark"))],
    "board": [("classic", gettext_lazy("Classic (wood)")), ("green", gettext_lazy("Tournament green")),
              ("contrast", gettext_lazy("High contrast"))],
    "language": [("", gettext_lazy("As my browser")), *settings.LANGUAGES],
}


# -- quick pairing: the seek pool (services.queue_*), with the computer as a fallback ------------


@login_required
@require_POST
def play_now(request):
    """``POST /play/now/``: join the seek pool for a match length; then its waiting page."""
    try:
        status = services.queue_join(player=player_of(request.user), length=_int(request.POST.get("length"), 3, gettext("The length")))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    if status["status"] == "matched":
        return redirect("match_waiting", match_id=status["matchId"])
    wait = _int(request.POST.get("fallback"), 60, gettext("The wait"))
    return redirect(f"{reverse('play_now_page')}?fallback={wait}")


@login_required
def play_now_page(request):
    """``GET /play/now/``: waiting for an opponent; the page polls ``/play/now/status.json``."""
    status = services.queue_status(player=player_of(request.user))
    if status["status"] == "matched":
        return redirect("match_waiting", match_id=status["matchId"])
    return render(request, "seek.html", {"status": status, "fallback": _int(request.GET.get("fallback"), 60, gettext("The wait"))})


@login_required
def play_now_status(request):
    """``GET /play/now/status.json``: the seek's status (a poll keeps it alive and retries pairing)."""
    return JsonResponse(services.queue_status(player=player_of(request.user)))


@login_required
@require_POST
def play_now_leave(request):
    """``POST /play/now/leave/``: leave the pool; with ``computer=1`` play the computer instead."""
    player = player_of(request.user)
    status = services.queue_leave(player=player)
    if status["status"] == "matched":  # paired meanwhile: go and play
        return redirect("match_waiting", match_id=status["matchId"])
    if request.POST.get("computer") == "1":
        return play_computer(request)
    return redirect("home")
