"""Reads of tournaments: the lists (upcoming, running, finished) and one tournament as a
plain dict (its rules, entrants, standings, bracket and matches), the same for the bot
API, the command and the pages."""

from __future__ import annotations

from django.db.models import Count

from games.models import Entry, Match, Player, Tournament, TournamentMatch
from games.selectors.clubs import club_directs
from games.tournament import load

UPCOMING, RUNNING, FINISHED = "upcoming", "running", "finished"
SECTIONS = {UPCOMING: [Tournament.REGISTERING], RUNNING: [Tournament.RUNNING],
            FINISHED: [Tournament.FINISHED, Tournament.CANCELLED]}
LIST_LIMIT = 100


def _iso(at) -> str | None:
    return at.isoformat() if at else None


def tournament_list(*, section: str | None = None, limit: int = LIST_LIMIT, club: int | None = None) -> list:
    """Tournaments of one section (None: every one), the newest first, as summaries;
    ``club``: only that club's."""
    qs = Tournament.objects.select_related("winner", "club").order_by("-created_at", "-pk")
    if section is not None:
        qs = qs.filter(status__in=SECTIONS[section])
    if club is not None:
        qs = qs.filter(club_id=club)
    rows = list(qs[:limit])
    counts = dict(Entry.objects.filter(tournament__in=rows, status=Entry.ENTERED).values("tournament")
                  .annotate(n=Count("pk")).values_list("tournament", "n"))
    return [summary(t, entrants=counts.get(t.pk, 0)) for t in rows]


def tournament_sections(*, club: int | None = None) -> dict:
    """``{"upcoming": [...], "running": [...], "finished": [...]}`` for the list page."""
    return {name: tournament_list(section=name, club=club) for name in SECTIONS}


def summary(t: Tournament, *, entrants: int) -> dict:
    return {
        "id": t.pk, "name": t.name, "format": t.format, "formatName": t.get_format_display(),
        "status": t.status, "options": t.options, "startsAt": _iso(t.starts_at),
        "roundDeadlineHours": t.round_deadline_hours, "maxEntrants": t.max_entrants, "entrants": entrants,
        "winner": ({"id": t.winner_id, "name": t.winner.display_name} if t.winner_id else None),
        "createdAt": _iso(t.created_at), "startedAt": _iso(t.started_at), "finishedAt": _iso(t.finished_at),
        "version": t.version, "club": ({"id": t.club_id, "name": t.club.name} if t.club_id else None),
    }


def tournament_detail(t: Tournament, viewer: Player | None = None) -> dict:
    """Everything one tournament shows: the summary, the entrants, the standings (once it
    runs), the bracket (bracket formats), each pairing's match, and what ``viewer`` may do."""
    entries = list(Entry.objects.filter(tournament=t).select_related("player", "player__housebot").order_by("pk"))
    names = {e.player_id: e.player.display_name for e in entries}
    event = load(t.state) if t.state else None
    links = list(TournamentMatch.objects.filter(tournament=t).select_related("match").order_by("round", "pk"))
    out = summary(t, entrants=sum(1 for e in entries if e.status == Entry.ENTERED))
    seeds = event.seeds if event is not None else {}
    out["entrantList"] = [{
        "id": e.player_id, "name": e.player.display_name, "rating": round(e.player.rating),
        "isBot": e.player.is_bot, "status": e.status, "seed": seeds.get(e.player_id),
    } for e in entries]
    out["standings"] = [] if event is None else [
        {**s.to_dict(), "name": names.get(s.player, str(s.player))} for s in event.standings()]
    out["bracket"] = [] if event is None or not hasattr(event, "bracket") else [
        {**node, "aName": names.get(node["a"]), "bName": names.get(node["b"]),
         "winnerName": names.get(node["winner"])} for node in event.bracket()]
    out["matches"] = [_match(link, names) for link in links]
    directors = dict(t.directors.values_list("pk", "display_name"))
    out["directors"] = list(directors.values())
    if viewer is not None:
        mine = next((e for e in entries if e.player_id == viewer.pk), None)
        entered = mine is not None and mine.status == Entry.ENTERED
        open_ = t.status == Tournament.REGISTERING
        out["you"] = {
            "entered": entered,
            "canEnter": open_ and not entered and not viewer.suspended and (
                t.max_entrants is None or out["entrants"] < t.max_entrants),
            "isDirector": viewer.pk in directors or getattr(viewer.user, "is_staff", False) or club_directs(viewer, t),
            "canWithdraw": entered and t.status in (Tournament.REGISTERING, Tournament.RUNNING),
            "nextMatch": next((m["matchId"] for m in out["matches"] if m["status"] == Match.PLAYING
                               and viewer.pk in (m["white"]["id"], m["black"]["id"])), None),
        }
    return out


def _match(link: TournamentMatch, names: dict) -> dict:
    m = link.match
    return {
        "key": link.key, "label": link.label, "round": link.round, "matchId": m.pk, "status": m.status,
        "white": {"id": m.white_id, "name": names.get(m.white_id, "?"), "score": m.white_score},
        "black": {"id": m.black_id, "name": names.get(m.black_id, "?"), "score": m.black_score},
        "length": m.length, "winner": m.winner_id, "endReason": m.end_reason or None,
        "deadline": _iso(link.deadline), "replaced": link.replaced, "forced": link.forced or None,
    }


def standings_json(t: Tournament) -> dict:
    """What ``manage.py tournament show`` prints."""
    detail = tournament_detail(t)
    return {key: detail[key] for key in ("id", "name", "format", "status", "winner", "entrants", "standings")}


__all__ = ["tournament_list", "tournament_sections", "tournament_detail", "summary", "standings_json", "SECTIONS"]
