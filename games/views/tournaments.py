"""The tournaments' pages (thin: reads through ``games.selectors.tournaments``, writes
through the services): the list (upcoming, running, finished) and one tournament's page
(rules, entrants, bracket or standings, each table's link to watch, enter/withdraw/check in,
and a director's start, house bots, pause, withdraw, disqualify, award, re-pair and log)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games import services
from games.errors import ServiceError
from games.models import Club, Tournament
from games.selectors import tournaments as view
from games.selectors.players import player_of
from games.views.pages import _bot_levels


def when(iso: str | None) -> str:
    """An ISO time as the pages show it: ``2030-01-07 20:00 UTC``."""
    return f"{iso[:16].replace('T', ' ')} UTC" if iso else ""


def tournament_list(request):
    """``GET /tournaments/[?club=<id>]``: upcoming, running and finished tournaments (of one club)."""
    club = Club.objects.filter(pk=request.GET["club"]).first() if request.GET.get("club", "").isdigit() else None
    sections = view.tournament_sections(club=club.pk if club else None)
    for rows in sections.values():
        for row in rows:
            row["startsText"], row["startedText"] = when(row["startsAt"]), when(row["startedAt"])
    return render(request, "tournaments.html", {"sections": sections, "club": club})


def bracket_columns(detail: dict) -> list:
    """The bracket's matches in columns, one per stage and round, in order."""
    live = {m["key"]: m["matchId"] for m in detail["matches"] if not m["replaced"]}
    columns: dict = {}
    for node in detail["bracket"]:
        # the label names its stage ("Consolation semi-final", "Losers' round 2"), in the reader's words
        column = columns.setdefault((node["stage"], node["round"]), {"title": node["label"], "nodes": []})
        column["nodes"].append({**node, "matchId": live.get(node["key"])})
    return list(columns.values())


def tournament_page(request, tournament_id):
    """``GET /tournaments/<id>/``. With ``?fragment=1`` (the page's live updates) only the
    tournament's part of the page, and with ``&v=N`` nothing at all (204) while the
    tournament's version is still ``N``: one indexed read when nothing changed (the row read
    once, for the version and the page alike)."""
    fragment = request.GET.get("fragment") == "1"
    t = get_object_or_404(Tournament, pk=tournament_id)
    if fragment:
        held = request.GET.get("v", "")
        if held.isdigit() and t.version <= int(held):
            return HttpResponse(status=204)
    detail = view.tournament_detail(t, player_of(request.user))
    options = detail["options"]
    detail["startsText"], detail["startedText"] = when(detail["startsAt"]), when(detail["startedAt"])
    for action in detail["log"]:
        action["atText"] = when(action["at"])
    return render(request, "tournament_body.html" if fragment else "tournament.html", {
        "t": detail, "columns": bracket_columns(detail), "you": detail.get("you"),
        "length": (options.get("lengths") or {}).get("default"), "levels": _bot_levels(),
        "playing": [m for m in detail["matches"] if m["status"] == "playing"],
        "finished": [m for m in detail["matches"] if m["status"] != "playing"],
        "entered": [e for e in detail["entrantList"] if e["status"] == "entered"],
    })


def _number(value):
    """A form's whole number (None when it is not one: the service refuses it)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _bots(post) -> dict:
    return {"level": post.get("level"), "count": _number(post.get("count")) or 0}


def _reason(post) -> dict:
    return {"reason": post.get("reason", "")}


def _of_player(post) -> dict:
    return {"player_id": _number(post.get("player")), **_reason(post)}


def _award(post) -> dict:
    return {"key": post.get("key", ""), "winner_id": _number(post.get("winner")), **_reason(post)}


def action(fn, done, *, as_player: bool = False, form=None):
    """A tournament page's button: ``POST /tournaments/<id>/<what>/`` calls ``fn`` (the
    player acting as ``player``, or as ``by`` for a director's action) with the form's
    fields read by ``form``, then back to the page with ``done`` or the refusal."""

    @login_required
    @require_POST
    def post(request, tournament_id):
        me = player_of(request.user)
        try:
            fn(tournament_id=tournament_id, **({"player": me} if as_player else {"by": me}),
               **(form(request.POST) if form else {}))
            messages.success(request, done)
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("tournament_page", tournament_id=tournament_id)

    return post


tournament_enter = action(services.tournament_enter, _("You are entered."), as_player=True)
tournament_withdraw = action(services.tournament_withdraw, _("You have withdrawn."), as_player=True)
tournament_check_in = action(services.tournament_check_in, _("You are checked in."), as_player=True)
tournament_start = action(services.tournament_start, _("The draw is made: the matches have started."))
tournament_add_bots = action(services.tournament_add_bots, _("House bots entered."), form=_bots)
tournament_pause = action(services.tournament_pause, _("The tournament is paused."), form=_reason)
tournament_resume = action(services.tournament_resume, _("The tournament goes on."), form=_reason)
tournament_disqualify = action(services.tournament_disqualify, _("The player is disqualified."), form=_of_player)
tournament_remove = action(services.tournament_director_withdraw, _("The player is withdrawn."), form=_of_player)
tournament_award = action(services.tournament_award, _("The match is awarded."), form=_award)
tournament_repair = action(services.tournament_repair, _("The round is paired again."), form=_reason)

DIRECTOR_ACTIONS = {"pause": tournament_pause, "resume": tournament_resume, "disqualify": tournament_disqualify,
                    "remove": tournament_remove, "award": tournament_award, "repair": tournament_repair,
                    "check-in": tournament_check_in}
