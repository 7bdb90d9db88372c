"""The bot API's chouette endpoints (docs/BOT_API.md, "Chouettes"): list, open, join, start,
read the chouette view (long-polled with ``wait``/``since``), act. Thin: the services
decide, ``games.selectors.chouettes`` reads."""

from __future__ import annotations

import functools

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from games.engine import actions
from games import services
from games.selectors import chouettes as chouette_view, visibility
from games.events import chouette_group
from games.models import Chouette
from games.api import auth, longpoll
from games.api.errors import REFUSALS, ApiError, error_response, response_for
from games.api.views import api, long_poll_args, read_json, releasing
from django.utils.translation import gettext



def _chouette(chouette_id, player) -> Chouette:
    c = Chouette.objects.filter(pk=chouette_id).first()
    if c is None or not visibility.can_view_chouette(player.user, c):
        raise ApiError(404, "chouette_not_found", gettext("No such chouette."))
    return c


def chouette_agent_view(c: Chouette, player) -> dict:
    """The public state, plus what this agent may do now."""
    view = chouette_view.snapshot(c, player.pk)
    game = view["game"]
    mine = [p for p in (game["pending"] if game else []) if p["player"] == player.pk]
    view["yourActions"] = game["allowed"].get(str(player.pk), []) if game else []
    view["yourDecisions"] = mine
    view["isYourTurn"] = bool(mine)
    return view


@api("GET", "POST")
def chouettes(request):
    """``GET [?page=N]``: open chouettes (a page of the lobby, tables with a free seat first) and
    yours; ``POST {options?, private?, decisionSeconds?}``: open one."""
    player = auth.agent_player(request)
    if request.method == "GET":
        mine = Chouette.objects.filter(seats__player=player).order_by("-pk")[:50]
        lobby = chouette_view.open_chouettes_page(request.GET.get("page") or 1)
        return JsonResponse({"open": lobby["tables"], "page": lobby["page"], "pages": lobby["pages"],
                             "yours": [chouette_view.lobby_entry(c) for c in mine]})
    data = read_json(request, ("options", "private", "decisionSeconds"))
    c = services.chouette_create(player=player, options=data.get("options"), private=bool(data.get("private")),
                                 decision_seconds=data.get("decisionSeconds", 60))
    return JsonResponse(chouette_agent_view(c, player), status=201)


@api("POST")
def chouette_join(request, chouette_id):
    """``POST /api/chouettes/<id>/join``: sit at the end of the line."""
    player = auth.agent_player(request)
    c = _chouette(chouette_id, player)
    services.chouette_join(player=player, chouette_id=c.pk)
    return JsonResponse(chouette_agent_view(Chouette.objects.get(pk=c.pk), player))


@api("POST")
def chouette_start(request, chouette_id):
    """``POST /api/chouettes/<id>/start``: the creator starts (seating, then the first game)."""
    player = auth.agent_player(request)
    c = _chouette(chouette_id, player)
    services.chouette_start(chouette_id=c.pk, player=player)
    return JsonResponse(chouette_agent_view(Chouette.objects.get(pk=c.pk), player))


@releasing
def _view_now(chouette_id, player) -> dict:
    return chouette_agent_view(_chouette(chouette_id, player), player)


@releasing
def _version_now(chouette_id) -> int:
    return Chouette.objects.filter(pk=chouette_id).values_list("version", flat=True).first() or 0


@csrf_exempt
async def chouette_detail(request, chouette_id):
    """``GET /api/chouettes/<id>[?wait=<s>&since=<version>]``: the chouette view, long-polled
    on the chouette's channel-layer group (``games.api.longpoll``); no thread is held meanwhile."""
    if request.method != "GET":
        return error_response(405, "method_not_allowed", gettext("Use GET."), {"Allow": "GET"})
    try:
        wait, since, player = await long_poll_args(request)
        view = await sync_to_async(_view_now)(chouette_id, player)
        if since is None or not wait or view["version"] > since:
            return JsonResponse(view)
        await longpoll.wait_past(get_channel_layer(), chouette_group(c_id := int(chouette_id)),
                                 functools.partial(_version_now, c_id), since, wait)
        return JsonResponse(await sync_to_async(_view_now)(chouette_id, player))
    except REFUSALS as exc:
        return response_for(exc)


@api("POST")
def chouette_actions(request, chouette_id):
    """``POST /api/chouettes/<id>/actions`` ``{"type", "version"?, "cube"?, "cubes"?, "amount"?,
    "moves"?}``: one action of the current game; answers the new view."""
    player = auth.agent_player(request)
    data = read_json(request, ("type", "version", "cube", "cubes", "amount", "moves", "steps"))
    kind = data.pop("type", None)
    version = data.pop("version", None)
    try:
        spec = actions.lookup(kind, actions.CHOUETTE)
    except actions.UnknownAction:
        raise ApiError(400, "bad_action", gettext("'type' must be one of %(values)s.")
                % {"values": ', '.join(actions.CHOUETTE_ACTIONS)}) from None
    fields = spec.take_fields(data)
    extra = sorted(k for k in data if not spec.accepts(k))
    if extra:
        raise ApiError(400, "unknown_field", gettext("'%(extra)s' does not belong to a %(kind)s action.")
                % {"extra": extra[0], "kind": repr(kind)})
    if version is not None and (type(version) is not int or version < 0):
        raise ApiError(400, "bad_version", gettext("'version' must be a non-negative integer."))
    c = _chouette(chouette_id, player)
    services.chouette_act(chouette_id=c.pk, player=player, action=kind, expected_version=version, **fields)
    return JsonResponse(chouette_agent_view(Chouette.objects.get(pk=c.pk), player))
