"""A director's actions on a tournament: pause and resume, withdraw or disqualify a player,
award a match, re-pair a round not yet started. Each is checked (``check_*``: refused with
a stable code, nothing changed), then done (``do_*``) under the locks of
``services.tournament_play`` (match rows, then the tournament row), and logged
(:class:`~games.models.DirectorAction`, shown on the page and in the API). Who is a
director is ``games.selectors.tournaments.is_director`` alone.

The rules are docs/TOURNAMENTS.md, "The director".
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games import clock
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import DirectorAction, Match, Player, Tournament, TournamentMatch
from games.selectors.tournaments import is_director
from games.services.lifecycle import MatchRecord, abort_game, came, current_game, forfeit_match, lock_match, valid_id
from games.services.tournament_play import (
    AWARDED,
    advance,
    bump,
    check,
    event_of,
    lock_tournament,
    record_result,
    running_links,
)
from games.tournament import Result

MAX_REASON = 200


def require_director(tournament: Tournament, by) -> None:
    """``by`` None is the site itself (a command, a periodic job)."""
    if by is not None and not is_director(tournament, by):
        raise Forbidden("not_a_director", _("Only the tournament's directors can do that."))


def log(tournament: Tournament, action: str, *, by=None, player=None, key: str = "", reason: str = "") -> DirectorAction:
    return DirectorAction.objects.create(tournament=tournament, action=action, by=by, player=player, key=key[:20],
                                         reason=(reason or "")[:MAX_REASON])


def clean_reason(reason) -> str:
    if reason is None:
        return ""
    if not isinstance(reason, str) or len(reason) > MAX_REASON:
        raise BadRequest("bad_reason", _("A reason is at most %(n)s characters.") % {"n": MAX_REASON})
    return reason.strip()


def _running(tournament: Tournament) -> None:
    if tournament.status != Tournament.RUNNING:
        raise Conflict("not_running", _("This tournament is not running."))


def check_running(tournament: Tournament, by) -> None:
    """A director's action on a running event (refused: ``not_a_director``, ``not_running``)."""
    require_director(tournament, by)
    _running(tournament)


# -- pause and resume ---------------------------------------------------------------------------


def check_pause(tournament: Tournament, by, *, pause: bool) -> None:
    require_director(tournament, by)
    if tournament.status not in (Tournament.REGISTERING, Tournament.RUNNING):
        raise Conflict("tournament_over", _("This tournament is over."))
    if pause and tournament.paused_at is not None:
        raise Conflict("already_paused", _("This tournament is paused already."))
    if not pause and tournament.paused_at is None:
        raise Conflict("not_paused", _("This tournament is not paused."))


def do_pause(tournament: Tournament, by, *, now, reason: str) -> None:
    tournament.paused_at = now
    tournament.save(update_fields=["paused_at"])
    log(tournament, DirectorAction.PAUSE, by=by, reason=reason)


def do_resume(tournament: Tournament, by, *, now, reason: str) -> None:
    """The deadlines of the matches being played move on by the time the pause lasted;
    the pairings that waited get their matches."""
    held = now - tournament.paused_at
    for link in TournamentMatch.objects.filter(tournament=tournament, replaced=False, deadline__isnull=False,
                                               match__status=Match.PLAYING):
        link.deadline += held
        link.save(update_fields=["deadline"])
    tournament.paused_at = None
    tournament.save(update_fields=["paused_at"])
    log(tournament, DirectorAction.RESUME, by=by, reason=reason)


def tournament_pause(*, tournament_id, by: Player | None, reason=None, now=None) -> Tournament:
    """Pause: no new match is created and no deadline forfeits anyone until resumed (the
    matches being played go on; their results are filed)."""
    reason, now = clean_reason(reason), now or clock.now()
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        check_pause(tournament, by, pause=True)
        do_pause(tournament, by, now=now, reason=reason)
        _after(tournament, now)
        return tournament


def tournament_resume(*, tournament_id, by: Player | None, reason=None, now=None) -> Tournament:
    reason, now = clean_reason(reason), now or clock.now()
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        check_pause(tournament, by, pause=False)
        do_resume(tournament, by, now=now, reason=reason)
        _after(tournament, now)
        return tournament


def _after(tournament: Tournament, now) -> None:
    """A running event brought up to date (and told); one registering just told."""
    if tournament.status == Tournament.RUNNING:
        advance(tournament, event_of(tournament), now=now)
    else:
        bump(tournament)


# -- withdraw, disqualify (``services.tournaments.remove_entrant``) ------------------------------


def player_by_id(player_id) -> Player:
    pk = valid_id(player_id, "player_not_found", _("No such player."))
    found = Player.objects.filter(pk=pk).first()
    if found is None:
        raise NotFound("player_not_found", _("No such player."))
    return found


# -- award a match ------------------------------------------------------------------------------


def check_award(tournament: Tournament, event, by, key, winner_id) -> object:
    check_running(tournament, by)
    if not isinstance(key, str) or not key:
        raise BadRequest("bad_key", _("Name the match by its key (e.g. R1-2)."))
    pairing = check(event.pairing, key)
    if winner_id not in pairing.players:
        raise BadRequest("bad_winner", _("The winner must be one of the match's two players."))
    return pairing


def tournament_award(*, tournament_id, key, winner_id, by: Player | None, reason=None, now=None) -> TournamentMatch | None:
    """Give the undecided match ``key`` to ``winner_id`` (an awarded result: a match win,
    no points). A match being played ends at once, the other player losing it."""
    reason, now = clean_reason(reason), now or clock.now()
    pk = valid_id(tournament_id, "tournament_not_found", _("No such tournament."))
    with transaction.atomic():
        link = (TournamentMatch.objects.filter(tournament_id=pk, key=str(key)[:20], replaced=False)
                .order_by("-pk").first() if isinstance(key, str) else None)
        match = lock_match(link.match_id) if link is not None else None  # lock order: the match first
        tournament = lock_tournament(pk)
        event = event_of(tournament) if tournament.state else None
        if event is None:
            check_running(tournament, by)
        check_award(tournament, event, by, key, winner_id)
        log(tournament, DirectorAction.AWARD, by=by, player=Player.objects.get(pk=winner_id), key=key, reason=reason)
        if match is not None and match.status == Match.PLAYING:
            link.forced = AWARDED
            link.save(update_fields=["forced"])
            record = MatchRecord(match)
            loser = "black" if match.white_id == winner_id else "white"
            forfeit_match(record, match, loser, AWARDED)
            record.lobby_changed()
            record.commit()  # the match's end files the award (tournament_play.on_match_end)
        else:
            record_result(tournament, event, key, Result.awarded(winner_id), now=now)
        return link


# -- re-pair a round ----------------------------------------------------------------------------


def check_repair(tournament: Tournament, event, by, links: list) -> None:
    check_running(tournament, by)
    if not hasattr(event, "unpair_round"):
        raise Conflict("cannot_repair", _("Only a Swiss round can be paired again."))
    check(event.unpair_round)
    for link in links:
        match = link.match
        if match.status != Match.PLAYING or any(came(match, pid) for pid in (match.white_id, match.black_id)):
            raise Conflict("round_started", _("A match of this round has started: it cannot be paired again."))


def _round_keys(tournament) -> set:
    """The keys of a Swiss's current round (empty for another format or before the draw)."""
    if tournament is None or not tournament.state:
        return set()
    event = event_of(tournament)
    current = getattr(event, "current_round", 0)
    return {p.key for p in event.round_pairings(current)} if current else set()


def tournament_repair(*, tournament_id, by: Player | None, reason=None, now=None) -> Tournament:
    """Pair the current Swiss round again while none of its matches has started (nobody
    came to any: no move, no chat, no open board): its matches are dropped and the round
    paired anew from the field as it is now (after a withdrawal or a late entry)."""
    reason, now = clean_reason(reason), now or clock.now()
    pk = valid_id(tournament_id, "tournament_not_found", _("No such tournament."))
    with transaction.atomic():
        keys = _round_keys(Tournament.objects.filter(pk=pk).first())
        for match_id in sorted(TournamentMatch.objects.filter(tournament_id=pk, key__in=keys, replaced=False)
                               .values_list("match_id", flat=True)):
            lock_match(match_id)  # lock order: the matches first
        tournament = lock_tournament(pk)
        event = event_of(tournament) if tournament.state else None
        if _round_keys(tournament) != keys:  # pragma: no cover - paired between the read and the lock
            raise Conflict("try_again", _("The tournament changed meanwhile: try again."))
        links = list(TournamentMatch.objects.filter(tournament=tournament, key__in=keys, replaced=False)
                     .select_related("match"))
        if event is None:
            check_running(tournament, by)
        check_repair(tournament, event, by, links)
        log(tournament, DirectorAction.REPAIR, by=by, key=f"R{event.current_round}", reason=reason)
        for link in links:  # no longer this pairing's match: its end files nothing
            link.replaced = True
            link.save(update_fields=["replaced"])
            match = lock_match(link.match_id)
            record = MatchRecord(match)
            abort_game(record, current_game(match), match, "the round was paired again by a director")
            record.lobby_changed()
            record.commit()
        advance(tournament, event.unpair_round(), now=now)
        return tournament


__all__ = ["tournament_pause", "tournament_resume", "tournament_award", "tournament_repair", "require_director", "log",
           "clean_reason", "player_by_id"]
