"""Match lifecycle: create, join, leave (forfeit), abort, and the match's end."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from games import clock
from games.engine import EngineError, MatchRules
from games.engine.match import BOOL_OPTIONS, OPTION_FIELDS
from games.errors import BadRequest, Conflict, Forbidden
from games.models import Match, Player
from games.services.lifecycle import (
    MatchRecord,
    abort_game,
    create_game,
    current_game,
    forfeit_match,
    lock_match,
    open_game,
    player_id_of,
)
from games.services.notices import notice_accepted
from games.services.players import require_active
from django.utils.translation import gettext

def match_create(*, creator: Player, private: bool = False, spectators_allowed: bool = True,
                 anonymous_spectators: bool = True, rated: bool | None = None, clock_delay: int = 0,
                 clock_bank: int = 0, aids: bool = False, corr_days: int = 0, corr_bank_days: int = 0,
                 **options) -> Match:
    """Open a match waiting for an opponent. ``options`` are the engine's match options
    (``games.engine.match.OPTION_FIELDS``: ``length``, ``cube``, ``cube_limit``, ``crawford``,
    ``jacoby``...; defaults as :class:`~games.engine.MatchRules`), following RULES.md; a bad
    combination is refused with the engine's code (e.g. ``money_only_option``).
    ``rated`` defaults to true for a match to N points (a money session is never rated);
    ``aids`` (hints and the tutor) is for unrated play only: asked with ``rated=True`` it
    is refused (``aids_in_rated``), asked alone it makes the match unrated.
    ``corr_days`` (1, 2, 3 or 5 days per move) with ``corr_bank_days`` (0-30) makes it a
    correspondence match (docs/CORRESPONDENCE.md); it has no live clock (``bad_clock``)."""
    require_active(creator)
    if type(aids) is not bool or (rated is not None and type(rated) is not bool):
        raise BadRequest("bad_option", gettext("'rated' and 'aids' must be true or false."))
    if aids and rated:
        raise BadRequest("aids_in_rated", gettext("Hints and the tutor are for unrated matches only."))
    if aids:
        rated = False
    for name, value, most in (("clock_delay", clock_delay, 600), ("clock_bank", clock_bank, 3600)):
        if type(value) is not int or not 0 <= value <= most:
            raise BadRequest("bad_clock", gettext("'%(name)s' must be a whole number of seconds from 0 to %(most)s.")
                    % {"name": name, "most": most})
    check_correspondence(corr_days, corr_bank_days, live=bool(clock_delay or clock_bank))
    for name, value in (("private", private), ("spectators_allowed", spectators_allowed),
                        ("anonymous_spectators", anonymous_spectators)):
        if type(value) is not bool:
            raise BadRequest("bad_option", gettext("'%(name)s' must be true or false.") % {"name": name})
    unknown = sorted(set(options) - set(OPTION_FIELDS))
    if unknown:
        raise BadRequest("bad_option", gettext("Unknown match option %(unknown)s: use %(values)s.")
                % {"unknown": repr(unknown[0]), "values": ', '.join(OPTION_FIELDS)})
    for name in BOOL_OPTIONS:
        if options.get(name) is not None and type(options[name]) is not bool:
            raise BadRequest("bad_option", gettext("'%(name)s' must be true or false.") % {"name": name})
    try:
        rules = MatchRules(**options)
    except EngineError as exc:
        raise BadRequest(exc.code, exc.message) from None
    match = Match.objects.create(
        white=creator,
        **rules.options(),
        private=private,
        spectators_allowed=spectators_allowed,
        anonymous_spectators=anonymous_spectators,
        clock_delay=clock_delay,
        clock_bank=clock_bank,
        corr_days=corr_days,
        corr_bank_days=corr_bank_days,
        rated=((rules.length > 0) if rated is None else (bool(rated) and rules.length > 0)) and not creator.is_guest,
        aids=aids,
        invite_code=secrets.token_urlsafe(12),
    )
    record = MatchRecord(match)
    record.lobby_changed()
    record.commit()
    return match


def check_correspondence(days, bank, *, live: bool) -> None:
    if type(days) is not int or (days and days not in clock.CORR_DAYS):
        raise BadRequest("bad_clock", gettext("'corr_days' is the days per move: 0 (a live match) or one of %(values)s.")
                % {"values": ', '.join(map(str, clock.CORR_DAYS))})
    if type(bank) is not int or not 0 <= bank <= clock.CORR_MAX_BANK_DAYS:
        raise BadRequest("bad_clock", gettext("'corr_bank_days' must be a whole number of days from 0 to %(CORR_MAX_BANK_DAYS)s.")
                % {"CORR_MAX_BANK_DAYS": clock.CORR_MAX_BANK_DAYS})
    if bank and not days:
        raise BadRequest("bad_clock", gettext("A bank in days needs days per move ('corr_days')."))
    if days and live:
        raise BadRequest("bad_clock", gettext("A correspondence match has no live clock: give days or seconds, not both."))


def match_join(*, player: Player, match_id=None, invite_code=None) -> Match:
    """Take the empty seat and start the first game. A private match is joined
    only through its invite code."""
    require_active(player)
    with transaction.atomic():
        match = lock_match(match_id, invite_code)
        if match.status != Match.OPEN:
            raise Conflict("match_not_open", gettext("This match is not waiting for an opponent."))
        if match.white_id == player.pk:
            raise Conflict("own_match", gettext("You cannot join your own match."))
        if match.private and invite_code is None:
            raise Forbidden("private_match", gettext("This match is private: join it through its invite link."))
        match.black = player
        match.rated = match.rated and not player.is_guest  # guests never play rated matches
        match.status = Match.PLAYING
        match.started_at = timezone.now()
        match.white_bank_ms = match.black_bank_ms = clock.initial_bank_ms(match)
        match.white_away_since = match.black_away_since = None
        match.save(update_fields=["black", "rated", "status", "started_at", "white_bank_ms", "black_bank_ms",
                                  "white_away_since", "black_away_since"])
        record = MatchRecord(match)
        open_game(record, match, create_game(match, 1))
        record.lobby_changed()
        record.commit()
        notice_accepted(match)
        return match


def match_leave(*, match_id, player: Player) -> Match:
    """Leave a match: cancel it while open (the creator), else forfeit it.

    Forfeiting a match to N points gives the opponent the match; leaving a
    money session ends it (the game in progress is lost at its current stakes).
    """
    with transaction.atomic():
        match = lock_match(match_id)
        color = match.color_of(player_id_of(player))
        if color is None:
            raise Forbidden("not_a_player", gettext("You are not playing in this match."))
        record = MatchRecord(match)
        if match.status == Match.OPEN:
            match.status = Match.ABORTED
            match.end_reason = "cancelled"
            match.finished_at = timezone.now()
            match.save(update_fields=["status", "end_reason", "finished_at"])
        elif match.status != Match.PLAYING:
            raise Conflict("match_over", gettext("This match is over."))
        else:
            forfeit_match(record, match, color, "forfeit")
        record.lobby_changed()
        record.commit()
        return match


def match_abort(*, match_id, reason: str = "aborted by an administrator") -> Match:
    """End a match with no winner and no rating change (an administrator's action)."""
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status in (Match.FINISHED, Match.ABORTED):
            raise Conflict("match_over", gettext("This match is over."))
        record = MatchRecord(match)
        game = current_game(match)
        if game is not None:
            abort_game(record, game, match, reason)
        else:
            match.status = Match.ABORTED
            match.end_reason = "aborted"
            match.finished_at = timezone.now()
            match.save(update_fields=["status", "end_reason", "finished_at"])
            record.lobby_changed()
        record.commit()
        return match
