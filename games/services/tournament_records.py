"""A tournament's records filed by themselves: when the analysis of one of its matches is
done, the tournament's page hears of it (a new version), so that the match's PR and the
event's PR table show without a reload (docs/TOURNAMENTS.md, "Records"). The analysis
itself is the site's automatic one of every finished match (``services.analysis``).
"""

from __future__ import annotations

from django.db import transaction

from games.models import Tournament, TournamentMatch
from games.services.tournament_play import bump, lock_tournament

__all__ = ["on_analysis_done"]


def on_analysis_done(analysis) -> None:
    """``services.analysis``'s hook: every tournament the analysed match belongs to gets a
    new version, told to its page after the commit."""
    if getattr(analysis, "match_id", None) is None:
        return
    ids = sorted(set(TournamentMatch.objects.filter(match_id=analysis.match_id).values_list("tournament_id", flat=True)))
    for pk in ids:
        with transaction.atomic():
            tournament = lock_tournament(pk)
            if tournament.status != Tournament.CANCELLED:
                bump(tournament)
