"""The bot API's tournament endpoints (docs/BOT_API.md, "Tournaments"): list, read one,
enter and withdraw. Thin: the services decide, ``games.selectors.tournaments`` reads. An
agent plays its pairings' matches like any other match (``GET /api/matches?status=playing``)."""

from __future__ import annotations

from datetime import timezone as dt_timezone

from django.http import JsonResponse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import services
from games.api import auth
from games.api.errors import ApiError, found_or_404
from games.api.views import api, read_json
from games.models import Club, Tournament
from games.selectors import tournaments as view
from django.utils.translation import gettext


def _tournament(tournament_id) -> Tournament:
    return found_or_404(Tournament, tournament_id, "tournament_not_found", gettext("No such tournament."))


# ``POST /api/tournaments``'s body: the tournament page's rules, as ``GET`` shows them.
CREATE_FIELDS = ("name", "format", "length", "options", "startsAt", "roundDeadlineHours", "maxEntrants",
                 "ratingBand", "checkInMinutes", "lateEntries", "correspondence", "clock", "club")


def _starts_at(value):
    if value is None:
        return None
    when = parse_datetime(value) if isinstance(value, str) else None
    if when is None:
        raise ApiError(400, "bad_start", gettext("startsAt is an ISO 8601 time, e.g. 2026-12-01T19:00:00Z."))
    return when if timezone.is_aware(when) else timezone.make_aware(when, dt_timezone.utc)


def _create(request, player):
    """A new tournament open for entries: a club's (``club``: its owners) or the site's (staff)."""
    data = read_json(request, CREATE_FIELDS)
    band = data.get("ratingBand") or [None, None]
    corr = data.get("correspondence") or {}
    if not (isinstance(band, list) and len(band) == 2):
        raise ApiError(400, "bad_rating_band", gettext("ratingBand is [lowest, highest] (null: no bound)."))
    if not isinstance(corr, dict) or set(corr) - {"days", "bankDays"}:
        raise ApiError(400, "bad_clock", gettext("correspondence is an object with days and bankDays."))
    if data.get("clock") is not None and not isinstance(data["clock"], str):
        raise ApiError(400, "bad_clock_preset", gettext("clock is the name of a preset."))
    rules = dict(name=data.get("name", ""), format=data.get("format", ""), length=data.get("length", 7),
                 options=data.get("options"), starts_at=_starts_at(data.get("startsAt")),
                 round_deadline_hours=data.get("roundDeadlineHours", 0), max_entrants=data.get("maxEntrants"),
                 min_rating=band[0], max_rating=band[1], check_in_minutes=data.get("checkInMinutes", 0),
                 late_entries=data.get("lateEntries", False), corr_days=corr.get("days", 0),
                 corr_bank_days=corr.get("bankDays", 0), clock_preset=data.get("clock"))
    if data.get("club") is not None:
        t = services.club_tournament_create(club_id=data["club"], by=player, **rules)
    else:
        t = services.tournament_create_site(by=player, **rules)
    return JsonResponse(view.tournament_detail(Tournament.objects.get(pk=t.pk), player), status=201)


@api("GET", "POST")
def tournaments(request):
    """``GET /api/tournaments[?status=upcoming|running|finished][&club=<id>]``: the newest first.
    ``POST``: create one (``CREATE_FIELDS``; ``club``: for that club, by its owners; else the
    site's, by staff)."""
    player = auth.agent_player(request)
    if request.method == "POST":
        return _create(request, player)
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


# A director's action (``games.services.tournament_director``): the body's fields for each.
DIRECTOR = {
    "pause": (services.tournament_pause, ()),
    "resume": (services.tournament_resume, ()),
    "withdraw": (services.tournament_director_withdraw, ("player",)),
    "disqualify": (services.tournament_disqualify, ("player",)),
    "award": (services.tournament_award, ("key", "winner")),
    "repair": (services.tournament_repair, ()),
}
FIELD_ARGS = {"player": "player_id", "winner": "winner_id", "key": "key"}


@api("POST")
def tournament_director(request, tournament_id):
    """``POST /api/tournaments/<id>/director`` ``{"action": "pause"|"resume"|"withdraw"|
    "disqualify"|"award"|"repair", "player", "key", "winner", "reason"}``: a director's
    action, logged; the tournament as ``GET`` gives it (its ``log`` included)."""
    player = auth.agent_player(request)
    t = _tournament(tournament_id)
    data = read_json(request, ("action", "player", "key", "winner", "reason"))
    if data.get("action") not in DIRECTOR:
        raise ApiError(400, "bad_action", gettext("action is one of %(values)s.") % {"values": ", ".join(DIRECTOR)})
    fn, fields = DIRECTOR[data["action"]]
    fn(tournament_id=t.pk, by=player, reason=data.get("reason"),
       **{FIELD_ARGS[name]: data.get(name) for name in fields})
    return JsonResponse(view.tournament_detail(Tournament.objects.get(pk=t.pk), player))


@api("POST")
def tournament_check_in(request, tournament_id):
    """``POST /api/tournaments/<id>/check-in``: check in before the start."""
    player = auth.agent_player(request)
    t = _tournament(tournament_id)
    services.tournament_check_in(tournament_id=t.pk, player=player)
    return JsonResponse(view.tournament_detail(Tournament.objects.get(pk=t.pk), player))
