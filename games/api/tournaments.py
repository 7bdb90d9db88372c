"""The bot API's tournament endpoints (docs/BOT_API.md, "Tournaments"): list, read one,
enter and withdraw. Thin: the services decide, ``games.selectors.tournaments`` reads. An
agent plays its pairings' matches like any other match (``GET /api/matches?status=playing``)."""

from __future__ import annotations

from django.http import JsonResponse

from games import services
from games.api import auth
from games.api.errors import ApiError
from games.api.views import api
from games.models import Club, Tournament
from games.selectors import tournaments as view
from django.utils.translation import gettext


def _tournament(tournament_id) -> Tournament:
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None:
        raise ApiError(404, "tournament_not_found", gettext("No such tournament."))
    return found


@api("GET")
def tournaments(request):
    """``GET /api/tournaments[?status=upcoming|running|finished][&club=<id>]``: the newest first."""
    auth.agent_player(request)
    section = request.GET.get("status")
    if section is not None and section not in view.SECTIONS:
        raise ApiError(400, "bad_status", gettext("status is one of %(values)s.")
                % {"values": ', '.join(view.SECTIONS)})
    club = request.GET.get("club")
    if club is not None and not (club.isdigit() and Club.objects.filter(pk=int(club)).exists()):
        raise ApiError(404, "club_not_found", gettext("No such club."))
    return JsonResponse({"tournaments": view.tournament_list(section=section, club=int(club) if club else None)})


@api("GET")
def tournament_detail(request, tournament_id):
    """``GET /api/tournaments/<id>``: rules, entrants, standings, bracket, matches, ``you``."""
    player = auth.agent_player(request)
    return JsonResponse(view.tournament_detail(_tournament(tournament_id), player))


@api("POST", "DELETE")
def tournament_entries(request, tournament_id):
    """``POST``: enter; ``DELETE``: withdraw (once running, the match being played is forfeited)."""
    player = auth.agent_player(request)
    t = _tournament(tournament_id)
    if request.method == "POST":
        services.tournament_enter(tournament_id=t.pk, player=player)
        status = 201
    else:
        services.tournament_withdraw(tournament_id=t.pk, player=player)
        status = 200
    return JsonResponse(view.tournament_detail(Tournament.objects.get(pk=t.pk), player), status=status)
