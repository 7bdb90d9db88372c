"""Reads of match analyses: the JSON of ``/matches/<id>/analysis.json`` (``docs/ANALYSIS.md``),
a match's statistics for its page, and a player's PR history for the profile.

Nothing here writes; who may see an analysis is the match's visibility rule
(:mod:`games.selectors.visibility`), or its owner for an uploaded file.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext

from games.models import Analysis, Job, Match, Player
from games.selectors.jobs import job_dict
from games.selectors.visibility import visible_matches

__all__ = ["FORMAT", "MIN_DECISIONS", "latest_for_match", "analysis_json", "analysis_status", "may_cancel", "pr_history",
           "can_view_upload"]

FORMAT = "site-analysis/1"
#: A match counts in a player's PR history when the player made at least this many
#: decisions in it (unforced checker plays + close or actual cube decisions) ...
MIN_DECISIONS = 10
#: ... and it did not end because a player abandoned it (or was aborted by staff).
UNCOUNTED_ENDS = ("abandoned", "aborted")


def _status(analysis: Analysis) -> str:
    if analysis.result is not None:
        return Job.DONE
    return analysis.job.status if analysis.job is not None else Job.QUEUED


def latest_for_match(match: Match) -> Analysis | None:
    """The match's analysis to show: the newest finished one, else the newest."""
    rows = Analysis.objects.filter(match=match).select_related("job").order_by("-pk")
    return rows.filter(result__isnull=False).first() or rows.first()


def can_view_upload(analysis: Analysis, player: Player | None, user=None) -> bool:
    """An uploaded file's analysis is its owner's (and staff's with the match permission)."""
    if player is not None and analysis.owner_id == player.pk:
        return True
    return user is not None and getattr(user, "is_authenticated", False) and user.has_perm("games.view_any_match")


def analysis_status(analysis: Analysis) -> dict:
    """The short form a page polls while the job runs."""
    return {"id": analysis.pk, "status": _status(analysis), "depth": analysis.depth, "job": job_dict(analysis.job)}


def may_cancel(analysis: Analysis, player: Player | None) -> bool:
    """Whether ``player`` may cancel the analysis now (``services.analysis.analysis_cancel``)."""
    return (player is not None and analysis.owner_id == player.pk and analysis.job is not None
            and analysis.job.status in Job.ACTIVE)


def analysis_json(analysis: Analysis, *, viewer: str | None = None, may_reanalyse: bool = False,
                  may_cancel: bool = False) -> dict:
    """The documented JSON of one analysis (``docs/ANALYSIS.md``, "The site's JSON")."""
    match = analysis.match
    others = []
    if match is not None:
        others = [{"id": a.pk, "depth": a.depth, "status": _status(a)}
                  for a in Analysis.objects.filter(match=match).select_related("job").order_by("depth", "-pk")]
    players = {
        "white": {"name": analysis.white_name, "id": match.white_id if match else None},
        "black": {"name": analysis.black_name, "id": match.black_id if match else None},
    }
    return {
        "format": FORMAT,
        "id": analysis.pk,
        "source": analysis.source,
        "match": match.pk if match else None,
        "players": players,
        "matchLength": analysis.length,
        "depth": analysis.depth,
        "status": _status(analysis),
        "job": job_dict(analysis.job),
        "viewer": viewer,
        "mayReanalyse": may_reanalyse,
        "mayCancel": may_cancel,
        "analyses": others,
        "createdAt": analysis.created_at.isoformat(),
        "finishedAt": analysis.finished_at.isoformat() if analysis.finished_at else None,
        "analysis": analysis.result,
    }


def pr_history(player: Player, viewer, limit: int = 50) -> dict:
    """``{"matches": [{"match", "analysis", "date", "opponent", "pr", "decisions", "depth"}],
    "average": PR or None, "rule": text}``: the player's PR in finished matches played here
    that ``viewer`` (a Django user, AnonymousUser or None) may see (the visibility rule,
    :func:`~games.selectors.visibility.visible_matches`: a private match is its players' own),
    newest first (the newest finished analysis of each match), leaving out matches that were
    abandoned or aborted and those where the player made fewer than :data:`MIN_DECISIONS`
    decisions. The average is weighted by decisions (total error over total decisions)."""
    rows = (Analysis.objects.filter(source=Analysis.MATCH, result__isnull=False, match__status=Match.FINISHED)
            .filter(Q(match__white=player) | Q(match__black=player))
            .filter(match__in=visible_matches(viewer).values("pk"))
            .exclude(match__end_reason__in=UNCOUNTED_ENDS)
            .select_related("match", "match__white", "match__black").order_by("-match__finished_at", "-pk"))
    seen, out = set(), []
    total_pr = total_decisions = 0.0
    for analysis in rows:
        match = analysis.match
        if match.pk in seen:
            continue
        seen.add(match.pk)
        color = match.color_of(player)
        pr = analysis.white_pr if color == "white" else analysis.black_pr
        decisions = analysis.white_decisions if color == "white" else analysis.black_decisions
        if pr is None or decisions < MIN_DECISIONS:
            continue
        opponent = match.black if color == "white" else match.white
        out.append({"match": match.pk, "analysis": analysis.pk, "date": match.finished_at.date().isoformat()
                    if match.finished_at else None, "opponent": opponent.display_name if opponent else "?",
                    "length": match.length, "pr": pr, "decisions": decisions, "depth": analysis.depth,
                    "won": match.winner_id == player.pk, "forfeit": match.forfeit_note})
        total_pr += pr * decisions
        total_decisions += decisions
        if len(out) >= limit:
            break
    return {
        "matches": out,
        "average": round(total_pr / total_decisions, 2) if total_decisions else None,
        "rule": gettext("Finished matches played here with at least %(count)s decisions of yours (unforced "
                        "checker plays and close or actual cube decisions); abandoned and aborted matches are left "
                        "out. The average is weighted by decisions.") % {"count": MIN_DECISIONS},
    }
