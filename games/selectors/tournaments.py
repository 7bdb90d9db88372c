"""Reads of tournaments: the lists (upcoming, running, finished) and one tournament as a
plain dict (its rules, entrants, standings, bracket and matches), the same for the bot
API, the command and the pages."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count

from games import clock

from games.models import DirectorAction, Entry, Match, Player, Tournament, TournamentMatch
from games.selectors.clubs import club_directs
from games.selectors.tournament_records import match_records, pr_table
from games.engine.errors import word
from games.tournament import labels, load

UPCOMING, RUNNING, FINISHED = "upcoming", "running", "finished"
SECTIONS = {UPCOMING: [Tournament.REGISTERING], RUNNING: [Tournament.RUNNING],
            FINISHED: [Tournament.FINISHED, Tournament.CANCELLED]}
LIST_LIMIT = 100


def is_director(tournament: Tournament, player) -> bool:
    """Whether ``player`` runs ``tournament``: one of its directors (its creator among them),
    staff, or an owner of the club it is run for. The one place that says it."""
    if player is None:
        return False
    if getattr(getattr(player, "user", None), "is_staff", False):
        return True
    return tournament.directors.filter(pk=player.pk).exists() or club_directs(player, tournament)


def director_log(t: Tournament) -> list:
    """The directors' actions on ``t``, oldest first, as the page and the API show them."""
    rows = DirectorAction.objects.filter(tournament=t).select_related("by", "player").order_by("pk")
    return [{"at": _iso(a.created_at), "action": a.action, "text": a.get_action_display(),
             "by": a.by.display_name if a.by_id else None,
             "player": {"id": a.player_id, "name": a.player.display_name} if a.player_id else None,
             "key": a.key or None, "reason": a.reason or None} for a in rows]


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
        "status": t.status, "statusName": t.get_status_display(), "options": t.options, "startsAt": _iso(t.starts_at),
        "roundDeadlineHours": t.round_deadline_hours, "maxEntrants": t.max_entrants, "entrants": entrants,
        "winner": ({"id": t.winner_id, "name": t.winner.display_name} if t.winner_id else None),
        "createdAt": _iso(t.created_at), "startedAt": _iso(t.started_at), "finishedAt": _iso(t.finished_at),
        "version": t.version, "club": ({"id": t.club_id, "name": t.club.name} if t.club_id else None),
        "paused": t.paused_at is not None,
        "ratingBand": [t.min_rating, t.max_rating], "checkInMinutes": t.check_in_minutes,
        "lateEntries": t.late_entries, "correspondence": {"days": t.corr_days, "bankDays": t.corr_bank_days},
        "clock": clock_of(t),
    }


def clock_of(t: Tournament) -> dict | None:
    """The live clock preset its matches get (None: no clock)."""
    name = (t.options or {}).get("clock")
    found = clock.preset(name)
    if found is None or t.corr_days:
        return None
    return {"preset": name, "label": str(clock.PRESET_LABELS.get(name, name)), "delay": found[0],
            "bankPerPoint": found[1]}


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
        {**node, "label": label_words(node["label"]), "aFrom": label_words(node["aFrom"]),
         "bFrom": label_words(node["bFrom"]), "aName": names.get(node["a"]), "bName": names.get(node["b"]),
         "winnerName": names.get(node["winner"])} for node in event.bracket()]
    records = match_records([link.match for link in links])
    out["matches"] = [{**_match(link, names), **records[link.match_id]} for link in links]
    out["prTable"] = pr_table([link.match for link in links if not link.replaced], records, names)
    prs = {row["player"]: row["pr"] for row in out["prTable"]}
    for row in out["standings"]:
        row["pr"] = prs.get(row["player"])
    out["pending"] = [] if event is None else [
        {"key": p.key, "label": label_words(p.label), "a": p.a, "aName": names.get(p.a), "b": p.b, "bName": names.get(p.b)}
        for p in event.pending() if not p.is_bye]
    out["waitingList"] = [{"id": e.player_id, "name": e.player.display_name}
                          for e in sorted((e for e in entries if e.status == Entry.WAITING), key=waiting_order)]
    out["directors"] = list(t.directors.values_list("display_name", flat=True))
    out["log"] = director_log(t)
    if viewer is not None:
        mine = next((e for e in entries if e.player_id == viewer.pk), None)
        entered = mine is not None and mine.status == Entry.ENTERED
        open_ = t.status == Tournament.REGISTERING
        out["you"] = {
            "entered": entered,
            "canEnter": (open_ or (late_open(t))) and not entered and not viewer.suspended and not (
                mine is not None and mine.status in (Entry.WAITING, Entry.DISQUALIFIED)),
            "isDirector": is_director(t, viewer),
            "waiting": mine is not None and mine.status == Entry.WAITING,
            "checkedIn": mine is not None and mine.checked_in_at is not None,
            "canCheckIn": (mine is not None and mine.status in (Entry.ENTERED, Entry.WAITING)
                           and mine.checked_in_at is None and check_in_open(t)),
            "canWithdraw": (entered or (mine is not None and mine.status == Entry.WAITING)) and t.status in (Tournament.REGISTERING, Tournament.RUNNING),
            "nextMatch": next((m["matchId"] for m in out["matches"] if m["status"] == Match.PLAYING
                               and viewer.pk in (m["white"]["id"], m["black"]["id"])), None),
        }
    return out


def late_open(t: Tournament) -> bool:
    """Whether a running tournament still takes entries (late entries, a Swiss with rounds
    left to pair, or an arena still open)."""
    if t.status != Tournament.RUNNING or not t.late_entries or not t.state:
        return False
    event = load(t.state)
    if t.format == "swiss":
        return event.current_round < event.total_rounds
    return t.format == "arena" and not event.is_over and not getattr(event, "closed", False)


def check_in_open(t: Tournament, now=None) -> bool:
    """Whether entrants may check in now (from ``check_in_minutes`` before the start)."""
    if t.status != Tournament.REGISTERING or not t.check_in_minutes or t.starts_at is None:
        return False
    return (now or clock.now()) >= t.starts_at - timedelta(minutes=t.check_in_minutes)


def label_words(label: str) -> str:
    """A name the tournament core gave a match or a bracket slot ("Semi-final", "winner of
    M-R1-1"), stored in English, in the reader's words (``games.tournament.labels``); the
    ``key`` beside it is what stays."""
    found = labels.parse(label)
    return word(*found) if found else label


def waiting_order(entry: Entry) -> tuple:
    return (entry.queued_at or entry.created_at, entry.pk)


def _match(link: TournamentMatch, names: dict) -> dict:
    m = link.match
    return {
        "key": link.key, "label": label_words(link.label), "round": link.round, "matchId": m.pk, "status": m.status,
        "white": {"id": m.white_id, "name": names.get(m.white_id, "?"), "score": m.white_score},
        "black": {"id": m.black_id, "name": names.get(m.black_id, "?"), "score": m.black_score},
        "length": m.length, "winner": m.winner_id, "endReason": m.end_reason or None,
        "endReasonWord": m.end_reason_word or None,
        "deadline": _iso(link.deadline), "replaced": link.replaced, "forced": link.forced or None,
    }


def standings_json(t: Tournament) -> dict:
    """What ``manage.py tournament show`` prints."""
    detail = tournament_detail(t)
    return {key: detail[key] for key in ("id", "name", "format", "status", "winner", "entrants", "standings", "clock",
                                         "prTable")}


__all__ = ["tournament_list", "tournament_sections", "tournament_detail", "is_director", "director_log",
           "late_open", "waiting_order", "check_in_open", "summary", "standings_json", "SECTIONS"]
