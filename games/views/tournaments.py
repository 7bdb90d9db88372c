"""The tournaments' pages (thin: reads through ``games.selectors.tournaments``, writes
through the services): the list (upcoming, running, finished) and one tournament's page
(rules, entrants, bracket or standings, each table's link to watch, enter/withdraw, and a
director's start and house bots)."""

from __future__ import annotations

from django.contrib import messages
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
        title = node["label"] if node["stage"] == "main" else f"{node['stage'].capitalize()}: {node['label']}"
        column = columns.setdefault((node["stage"], node["round"]), {"title": title, "nodes": []})
        column["nodes"].append({**node, "matchId": live.get(node["key"])})
    return list(columns.values())


def tournament_page(request, tournament_id):
    """``GET /tournaments/<id>/``."""
    t = get_object_or_404(Tournament, pk=tournament_id)
    detail = view.tournament_detail(t, player_of(request.user))
    options = detail["options"]
    detail["startsText"], detail["startedText"] = when(detail["startsAt"]), when(detail["startedAt"])
    return render(request, "tournament.html", {
        "t": detail, "columns": bracket_columns(detail), "you": detail.get("you"),
        "length": (options.get("lengths") or {}).get("default"), "levels": _bot_levels(),
        "playing": [m for m in detail["matches"] if m["status"] == "playing"],
        "finished": [m for m in detail["matches"] if m["status"] != "playing"],
    })


def _act(request, tournament_id, fn, done: str, **kwargs):
    try:
        fn(tournament_id=tournament_id, **kwargs)
        messages.success(request, done)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("tournament_page", tournament_id=tournament_id)


@login_required
@require_POST
def tournament_enter(request, tournament_id):
    return _act(request, tournament_id, services.tournament_enter, "You are entered.",
                player=player_of(request.user))


@login_required
@require_POST
def tournament_withdraw(request, tournament_id):
    return _act(request, tournament_id, services.tournament_withdraw, "You have withdrawn.",
                player=player_of(request.user))


@login_required
@require_POST
def tournament_start(request, tournament_id):
    return _act(request, tournament_id, services.tournament_start, "The draw is made: the matches have started.",
                by=player_of(request.user))


@login_required
@require_POST
def tournament_add_bots(request, tournament_id):
    try:
        count = int(request.POST.get("count") or 0)
    except ValueError:
        count = 0
    return _act(request, tournament_id, services.tournament_add_bots, "House bots entered.",
                by=player_of(request.user), level=request.POST.get("level"), count=count)
