"""What a tournament files by itself for each finished match: the match, its ``.mat`` file
and its analysis; and the **PR table of the event** (each player's PR over their analysed
tournament matches). Read by the tournament's page, the bot API and ``manage.py
tournament show`` through :func:`games.selectors.tournaments.tournament_detail`.

The analysis of a tournament match is the site's automatic analysis of every finished
match (``services.analysis.analysis_after_match``, under ``GAMES_ANALYSIS_AUTO`` and
``GAMES_AUTO_JOBS_AT_ONCE``); nothing here writes. docs/TOURNAMENTS.md, "Records".
"""

from __future__ import annotations

from django.db.models import BooleanField, ExpressionWrapper, Q
from django.urls import reverse

from games.models import Analysis, GameEvent, Job, Match

__all__ = ["match_records", "pr_table"]

DONE = Job.DONE


def _latest_analyses(match_ids: list) -> dict:
    """``{match id: row}``: the analysis each match shows (its newest finished one, else its
    newest), as a small dict (never the analysis's whole result)."""
    rows = (Analysis.objects.filter(source=Analysis.MATCH, match_id__in=match_ids)
            .annotate(done=ExpressionWrapper(Q(result__isnull=False), output_field=BooleanField()))
            .values("pk", "match_id", "done", "depth", "white_pr", "black_pr", "white_decisions", "black_decisions",
                    "job__status")
            .order_by("-pk"))
    out: dict = {}
    for row in rows:
        held = out.get(row["match_id"])
        if held is None or (row["done"] and not held["done"]):
            out[row["match_id"]] = row
    return out


def _with_moves(match_ids: list) -> set:
    """The matches in which a move was made (the ones with a record worth filing)."""
    return set(GameEvent.objects.filter(game__match_id__in=match_ids, type="move")
               .order_by().values_list("game__match_id", flat=True).distinct())


def match_records(matches: list) -> dict:
    """``{match id: {"url", "mat", "analysis"}}`` for the tournament's ``matches`` (Match
    rows): ``mat`` (the ``.mat`` file's address) and ``analysis`` (``id``, ``status``,
    ``depth``, ``url``, ``whitePr``, ``blackPr``, ``whiteDecisions``, ``blackDecisions``) only
    for a finished match in which a move was made; ``analysis`` None while none was queued."""
    finished = [m.pk for m in matches if m.status == Match.FINISHED]
    played = _with_moves(finished) if finished else set()
    analyses = _latest_analyses(sorted(played)) if played else {}
    out = {}
    for m in matches:
        record = {"url": reverse("match_waiting", args=[m.pk]), "mat": None, "analysis": None}
        if m.pk in played:
            record["mat"] = reverse("match_export_mat", args=[m.pk])
            row = analyses.get(m.pk)
            if row is not None:
                record["analysis"] = {
                    "id": row["pk"], "status": DONE if row["done"] else (row["job__status"] or Job.QUEUED),
                    "depth": row["depth"], "url": reverse("match_analysis", args=[m.pk]),
                    "whitePr": row["white_pr"] if row["done"] else None,
                    "blackPr": row["black_pr"] if row["done"] else None,
                    "whiteDecisions": row["white_decisions"] if row["done"] else 0,
                    "blackDecisions": row["black_decisions"] if row["done"] else 0,
                }
        out[m.pk] = record
    return out


def pr_table(matches: list, records: dict, names: dict) -> list:
    """The PR table of the event: one row per player who finished a tournament match with a
    move in it, ``{"player", "name", "pr", "decisions", "analysed", "played"}``. ``played``
    counts those matches, ``analysed`` the ones whose analysis is done; ``pr`` is the
    player's error over every decision of their analysed matches (weighted by decisions,
    like the profile's average; None before any analysis is done). Best PR first, then the
    players still waiting for an analysis, by name."""
    table: dict = {}
    for m in matches:
        record = records.get(m.pk)
        if record is None or record["mat"] is None:
            continue
        analysis = record["analysis"]
        for color, pid in (("white", m.white_id), ("black", m.black_id)):
            row = table.setdefault(pid, {"player": pid, "name": names.get(pid, "?"), "pr": None, "decisions": 0,
                                         "analysed": 0, "played": 0, "_error": 0.0})
            row["played"] += 1
            if analysis is None or analysis["status"] != DONE:
                continue
            pr, decisions = analysis[f"{color}Pr"], analysis[f"{color}Decisions"]
            row["analysed"] += 1
            if pr is not None and decisions:
                row["decisions"] += decisions
                row["_error"] += pr * decisions
    rows = []
    for row in table.values():
        error = row.pop("_error")
        row["pr"] = round(error / row["decisions"], 2) if row["decisions"] else None
        rows.append(row)
    rows.sort(key=lambda r: (r["pr"] is None, r["pr"] if r["pr"] is not None else 0.0, r["name"]))
    return rows
