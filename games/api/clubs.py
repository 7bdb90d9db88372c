"""The bot API's club endpoints (docs/BOT_API.md, "Clubs"): list and read clubs, join by
an invite token, leave, challenge on a club's ladder. Thin: the services decide,
``games.selectors.clubs`` reads. A challenge's match is played like any other match."""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext

from games import services
from games.api import auth
from games.api.errors import found_or_404
from games.api.views import api, read_json
from games.models import Club
from games.selectors import clubs as view


def _club(club_id) -> Club:
    return found_or_404(Club, club_id, "club_not_found", gettext("No such club."))


@api("GET")
def clubs(request):
    """``GET /api/clubs``: every club, yours first."""
    player = auth.agent_player(request)
    return JsonResponse({"clubs": view.club_list(player=player)})


@api("GET")
def club_detail(request, club_id):
    """``GET /api/clubs/<id>``: members (ladder order, rating, PR), challenges, tournaments, ``you``."""
    player = auth.agent_player(request)
    return JsonResponse(view.club_detail(_club(club_id), player))


@api("POST")
def club_join(request):
    """``POST /api/clubs/join`` ``{"token": ...}``: join the club of that invite token."""
    player = auth.agent_player(request)
    data = read_json(request, ("token",))
    member = services.club_join(token=data.get("token"), player=player)
    return JsonResponse(view.club_detail(member.club, player), status=201)


@api("DELETE")
def club_membership(request, club_id):
    """``DELETE /api/clubs/<id>/membership``: leave (an open challenge of yours is forfeited)."""
    player = auth.agent_player(request)
    club = _club(club_id)
    services.club_leave(club_id=club.pk, player=player)
    return JsonResponse(view.club_detail(club, player))


@api("POST")
def club_challenges(request, club_id):
    """``POST /api/clubs/<id>/challenges`` ``{"defender": playerId}``: challenge a member above you."""
    player = auth.agent_player(request)
    club = _club(club_id)
    data = read_json(request, ("defender",))
    challenge = services.club_challenge(club_id=club.pk, by=player, defender_id=data.get("defender"))
    return JsonResponse(view.challenge_dict(challenge), status=201)
