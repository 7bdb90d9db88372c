"""HTTP views of the bot API (thin: parse, authenticate, call a service or selector, shape).

Every answer is JSON; every refusal is ``{"error": {"code", "message"}}`` with the status
of docs/BOT_API.md. The match view is an async view so a long-poll holds no thread.
"""

from __future__ import annotations

import functools

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db.models import Q
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from games.engine import actions
from games import services, throttle
from games.bots.levels import LEVELS, house_bot_name
from games.db.calls import release_connections
from games.events import match_group
from games.jsonsafe import BadInput, parse
from games.models import Match
from games.api import auth, guide, longpoll, ratelimit
from games.selectors import turns
from games.selectors.serializers import time_control
from games.api.errors import REFUSALS, ApiError, error_response, response_for
from games.api.openapi import openapi
from games.api.agent_view import agent_view, current, game_version_for, load_match, match_summary, seat
from django.utils.translation import gettext

MAX_BODY = 16 * 1024
MAX_WAIT = 30


# -- plumbing ----------------------------------------------------------------------------------


def api(*methods):
    """Allow ``methods``, answer every refusal as a JSON error, exempt from CSRF (no cookies)."""

    def wrap(view):
        @csrf_exempt
        @functools.wraps(view)
        def inner(request, *args, **kwargs):
            if request.method not in methods:
                return error_response(405, "method_not_allowed", gettext("Use %(values)s.")
                        % {"values": ' or '.join(methods)},
                                      {"Allow": ", ".join(methods)})
            try:
                return view(request, *args, **kwargs)
            except REFUSALS as exc:
                return response_for(exc)

        return inner

    return wrap


def read_json(request, allowed: tuple) -> dict:
    """The request's JSON object body, parsed with limits (``games.jsonsafe``): 400
    ``bad_json``/``too_deep``/``bad_text``/``bad_body``/``unknown_field``, 413 ``too_large``."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > MAX_BODY:
        raise ApiError(413, "too_large", gettext("A request body may be at most %(MAX_BODY)s bytes.")
                % {"MAX_BODY": MAX_BODY})
    body = request.body
    try:
        data = parse(body, max_bytes=MAX_BODY) if body.strip() else None
    except BadInput as exc:
        status = 413 if exc.code == "too_large" else 400
        message = (gettext("A request body may be at most %(MAX_BODY)s bytes.") % {"MAX_BODY": MAX_BODY}
                   if exc.code == "too_large" else exc.message)
        raise ApiError(status, exc.code, message) from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad_body", gettext("The body must be a JSON object."))
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ApiError(400, "unknown_field", gettext("Unknown field %(value)s; allowed: %(values)s.")
                % {"value": repr(str(unknown[0])[:40]), "values": ', '.join(allowed)})
    return data


client_ip = throttle.client_address


# -- agents --------------------------------------------------------------------------------------


@api("POST")
def agents(request):
    """``POST /api/agents`` ``{"name", "description"?}`` -> 201 ``{"agentId", "name", "apiKey"}``."""
    ratelimit.check(f"ip:{client_ip(request)}")
    data = read_json(request, ("name", "description"))
    if "name" not in data:
        raise ApiError(400, "missing_field", gettext("'name' is required."))
    agent, key = services.agent_register(name=data["name"], description=data.get("description"))
    return JsonResponse({"agentId": agent.player_id, "name": agent.player.display_name, "apiKey": key},
                        status=201)


@api("GET")
def me(request):
    """``GET /api/agents/me``: who the key belongs to."""
    player = auth.agent_player(request)
    return JsonResponse({"agentId": player.pk, "name": player.display_name, "rating": round(player.rating, 1),
                         "matchesPlayed": player.matches_played, "matchesWon": player.matches_won})


@api("GET")
def levels(request):
    """``GET /api/bots``: the house-bot levels (for the queue's ``opponent``), weakest first."""
    out = [{"level": level.name, "description": level.description, "name": house_bot_name(level.name)}
           for level in LEVELS]
    return JsonResponse({"levels": out})


# -- matchmaking ------------------------------------------------------------------------------------


@api("GET", "POST", "DELETE")
def queue(request):
    """``POST`` join, ``GET`` status, ``DELETE`` leave the matchmaking queue."""
    player = auth.agent_player(request)
    if request.method == "GET":
        return JsonResponse(services.queue_status(player=player))
    if request.method == "DELETE":
        return JsonResponse(services.queue_leave(player=player))
    data = read_json(request, ("gameId", "matchLength", "opponent"))
    if "gameId" not in data:
        raise ApiError(400, "missing_field", gettext("'gameId' is required (\"backgammon\")."))
    return JsonResponse(services.queue_join(player=player, game=data["gameId"],
                                            length=data.get("matchLength", 1), opponent=data.get("opponent")))


# -- matches ----------------------------------------------------------------------------------------


@api("GET", "POST")
def matches(request):
    """``POST /api/matches``: open a match (correspondence with ``daysPerMove``); ``GET /api/matches``: the caller's matches, newest first (``?status=playing|finished``);
    ``?turn=mine`` the matches waiting for the caller, the one waiting longest first, with the
    time left (``?turn=theirs``: waiting for the opponent)."""
    player = auth.agent_player(request)
    if request.method == "POST":
        return _match_open(request, player)
    turn = request.GET.get("turn")
    if turn is not None:
        if turn not in ("mine", "theirs"):
            raise ApiError(400, "bad_turn", gettext("'turn' is mine or theirs."))
        mine, theirs = turns.split(player)
        return JsonResponse({"matches": [t.to_dict() for t in (mine if turn == "mine" else theirs)][:100]})
    status = request.GET.get("status")
    qs = Match.objects.filter(Q(white=player) | Q(black=player)).select_related("white", "black")
    if status:
        if status not in dict(Match.STATUSES):
            raise ApiError(400, "bad_status", gettext("'status' is one of open, playing, finished, aborted."))
        qs = qs.filter(status=status)
    return JsonResponse({"matches": [match_summary(m, player) for m in qs.order_by("-pk")[:100]]})


CREATE_FIELDS = {"matchLength": "length", "daysPerMove": "corr_days", "bankDays": "corr_bank_days",
                 "private": "private", "cube": "cube"}


def _match_open(request, player):
    """``POST /api/matches`` ``{"matchLength", "daysPerMove", "bankDays", "private", "cube"}`` -> 201
    ``{"matchId", "inviteCode", "status", "timeControl"}``: a match waiting for an opponent."""
    data = read_json(request, tuple(CREATE_FIELDS))
    options = {CREATE_FIELDS[name]: value for name, value in data.items()}
    options.setdefault("length", 5)
    match = services.match_create(creator=player, **options)
    return JsonResponse({"matchId": match.pk, "inviteCode": match.invite_code, "status": match.status,
                         "timeControl": time_control(match)}, status=201)


@api("POST")
def match_join(request, match_id):
    """``POST /api/matches/<id>/join`` (``{"inviteCode"}`` for a private match): take the empty
    seat; answers the agent view of the started match."""
    player = auth.agent_player(request)
    data = read_json(request, ("inviteCode",))
    code = data.get("inviteCode")
    if code is not None and not isinstance(code, str):
        raise ApiError(400, "bad_invite", gettext("'inviteCode' is the match's invite code (text)."))
    if code is not None:
        match = Match.objects.filter(pk=match_id, invite_code=code).first()
        if match is None:
            raise ApiError(404, "match_not_found", gettext("There is no match %(match_id)s with that invite code.")
                    % {"match_id": match_id})
        services.match_join(player=player, invite_code=code)
    else:
        services.match_join(player=player, match_id=match_id)
    return JsonResponse(agent_view(load_match(match_id, player), player))


def _number(request, name, *, low, high, integer):
    raw = request.GET.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = int(raw) if integer else float(raw)
    except ValueError:
        value = None
    if value is None or value != value or not low <= value <= high:
        kind = "a whole number" if integer else "a number"
        raise ApiError(400, f"bad_{name}", gettext("'%(name)s' must be %(kind)s from %(low)s to %(high)s.")
                % {"name": name, "kind": kind, "low": low, "high": high})
    return value


def releasing(fn):
    """Run ``fn`` and give its database connection back at once (the long poll reads the
    database every second for up to 30 s: it must not hold a pooled connection meanwhile)."""

    @functools.wraps(fn)
    def inner(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:
            release_connections()

    return inner


async def long_poll_args(request) -> tuple:
    """``(wait, since, agent player)`` of a long-poll request (400 on a bad number)."""
    wait = _number(request, "wait", low=0, high=MAX_WAIT, integer=False) or 0
    since = _number(request, "since", low=0, high=2**31, integer=True)
    return wait, since, await sync_to_async(releasing(auth.agent_player))(request)


@releasing
def _view_now(match_id, player) -> tuple:
    """``(view, current game id)``, read afresh from the database."""
    match = load_match(match_id, player)
    view = agent_view(match, player)
    game, _ = current(match)
    return view, game.pk


@csrf_exempt
async def match_detail(request, match_id):
    """``GET /api/matches/<id>[?wait=<s>&since=<version>]``: the agent view, long-polled.

    With ``wait`` and ``since`` the answer comes as soon as the match's version exceeds
    ``since`` (at once if it already does), else after ``wait`` seconds (at most 30)
    with the unchanged view. Waiting listens on the match's channel-layer group (so it works
    across server processes) and holds no thread (``games.api.longpoll``).
    """
    if request.method != "GET":
        return error_response(405, "method_not_allowed", gettext("Use GET."), {"Allow": "GET"})
    try:
        wait, since, player = await long_poll_args(request)
        view, _ = await sync_to_async(_view_now)(match_id, player)
        if since is None or not wait or view["version"] > since:
            return JsonResponse(view)
        return JsonResponse(await _long_poll(get_channel_layer(), match_id, player, since, wait))
    except REFUSALS as exc:
        return response_for(exc)


@releasing
def _version_now(match_id) -> int:
    """The match-wide version: the cheap check between two waits."""
    match = Match.objects.filter(pk=match_id).first()
    game, offset = current(match)
    return offset + game.version


async def _long_poll(layer, match_id, player, since: int, wait: float) -> dict:
    """The view once the match passes ``since`` (or ``wait`` seconds pass): ``games.api.longpoll``."""
    await longpoll.wait_past(layer, match_group(match_id), functools.partial(_version_now, match_id), since, wait)
    view, _ = await sync_to_async(_view_now)(match_id, player)
    return view


@api("POST")
def match_actions(request, match_id):
    """``POST /api/matches/<id>/actions``: one action; answers the new agent view."""
    player = auth.agent_player(request)
    data = read_json(request, ("type", "moves", "version", "level"))
    kind = data.get("type")
    try:
        spec = actions.lookup(kind)
    except actions.UnknownAction:
        raise ApiError(400, "bad_action", gettext("'type' must be one of %(values)s.")
                % {"values": ', '.join(actions.api_names())}) from None
    for name in ("moves", "level"):
        if name in data and name not in spec.fields:
            raise ApiError(400, "unknown_field", gettext("'%(name)s' does not belong to a %(kind)s action.")
                    % {"name": name, "kind": repr(kind)})
    if spec.name == "move" and not isinstance(data.get("moves"), list):
        raise ApiError(400, "bad_moves", gettext("'moves' must be a list of steps like {\"from\": 24, \"to\": 20} (an empty list passes when no move is possible)."))
    try:
        fields = spec.take_fields(data)
    except actions.MissingField as exc:
        raise ApiError(400, "missing_field", gettext("'%(field)s' is required for a %(kind)s action.")
                % {"field": exc.field, "kind": repr(kind)}) from None
    version = data.get("version")
    if version is not None and (type(version) is not int or version < 0):
        raise ApiError(400, "bad_version", gettext("'version' must be a non-negative integer."))
    match = load_match(match_id, player)
    seat(match, player)
    if match.status in (Match.FINISHED, Match.ABORTED):
        raise ApiError(409, "match_over", gettext("This match is over."))
    game, offset = current(match)
    expected = game_version_for(version, game, offset) if version is not None else None
    try:
        services.game_act(game_id=game.pk, player=player, action=spec.name, expected_version=expected, **fields)
    except REFUSALS as exc:
        if getattr(exc, "code", None) == "stale_version":  # lost a race after our own check
            raise ApiError(409, "stale_version", gettext("The match has moved on: fetch it and decide again.")) from None
        raise
    return JsonResponse(agent_view(load_match(match_id, player), player))


# -- documentation ---------------------------------------------------------------------------------


@api("GET", "POST")
def match_analysis(request, match_id):
    """``GET /api/matches/<id>/analysis``: the analysis of one of your own finished matches (the
    JSON of ``/matches/<id>/analysis.json``, docs/ANALYSIS.md); ``POST {"depth": 0-3}`` asks for it
    at another depth."""
    from games.selectors import analysis as analysis_reads  # noqa: PLC0415

    player = auth.agent_player(request)
    match = load_match(match_id, player)
    color = seat(match, player)
    if request.method == "POST":
        data = read_json(request, ("depth",))
        analysis = services.analysis_request(match_id=match.pk, player=player, depth=data.get("depth"))
    else:
        analysis = analysis_reads.latest_for_match(match)
        if analysis is None:
            if match.status != Match.FINISHED:
                raise ApiError(409, "match_not_over", gettext("A match is analysed once it is over."))
            raise ApiError(404, "analysis_not_found", gettext("This match has no analysis."))
    return JsonResponse(analysis_reads.analysis_json(analysis, viewer=color,
                                                     may_reanalyse=match.status == Match.FINISHED))


@api("GET")
def guide_page(request):
    """``GET /api/guide``: the bot author's guide (docs/BOT_API.md) as HTML."""
    return render(request, "api/guide.html", {"guide_html": guide.html(), "title": guide.title()})


@api("GET")
def guide_markdown(request):
    """``GET /api/guide.md``: the guide's Markdown source."""
    return HttpResponse(guide.text(), content_type="text/markdown; charset=utf-8")


@api("GET")
def openapi_json(request):
    """``GET /api/openapi.json``."""
    return JsonResponse(openapi(request.build_absolute_uri("/")[:-1]), json_dumps_params={"indent": 1})


def not_found(request, rest=""):
    """Any other path under /api/: a JSON 404."""
    return error_response(404, "not_found", gettext("There is no endpoint %(path)s: see /api/guide.")
            % {"path": repr(request.path)})


