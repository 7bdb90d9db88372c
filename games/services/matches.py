"""Match lifecycle: create, join, leave (forfeit), abort, and the match's end."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from ..engine import EngineError, MatchRules
from ..errors import BadRequest, Conflict, Forbidden, NotFound
from ..events import publish_match_on_commit
from ..models import Game, Match, Player
from ..ratings import rating_changes
from . import clock
from .games import append_event, finish_game, start_game
from .players import require_active

OPTION_FIELDS = ("length", "cube", "cube_limit", "crawford", "jacoby", "beaver", "raccoon", "auto_doubles",
                 "double_backgammon", "last_roll")


def match_create(*, creator: Player, length: int = 1, cube: bool | None = None, cube_limit: int | None = 64,
                 crawford: bool = True, jacoby: bool = False, beaver: bool = False, raccoon: bool = False,
                 auto_doubles: int = 0, double_backgammon: bool = False, last_roll: bool = False,
                 private: bool = False, spectators_allowed: bool = True, anonymous_spectators: bool = True,
                 rated: bool | None = None, clock_delay: int = 0, clock_bank: int = 0) -> Match:
    """Open a match waiting for an opponent. Options follow RULES.md; a bad
    combination is refused with the engine's code (e.g. ``money_only_option``)."""
    require_active(creator)
    for name, value, most in (("clock_delay", clock_delay, 600), ("clock_bank", clock_bank, 3600)):
        if type(value) is not int or not 0 <= value <= most:
            raise BadRequest("bad_clock", f"'{name}' must be a whole number of seconds from 0 to {most}.")
    for name, value in (("private", private), ("spectators_allowed", spectators_allowed),
                        ("anonymous_spectators", anonymous_spectators)):
        if type(value) is not bool:
            raise BadRequest("bad_option", f"'{name}' must be true or false.")
    for name, value in (("cube", cube), ("crawford", crawford), ("jacoby", jacoby), ("beaver", beaver),
                        ("raccoon", raccoon), ("double_backgammon", double_backgammon),
                        ("last_roll", last_roll)):
        if value is not None and type(value) is not bool:
            raise BadRequest("bad_option", f"'{name}' must be true or false.")
    try:
        rules = MatchRules(length=length, cube=cube, cube_limit=cube_limit, crawford=crawford, jacoby=jacoby,
                           beaver=beaver, raccoon=raccoon, auto_doubles=auto_doubles,
                           double_backgammon=double_backgammon, last_roll=last_roll)
    except EngineError as exc:
        raise BadRequest(exc.code, exc.message) from None
    match = Match.objects.create(
        white=creator,
        length=rules.length,
        cube=rules.cube,
        cube_limit=rules.cube_limit,
        crawford=rules.crawford,
        jacoby=rules.jacoby,
        beaver=rules.beaver,
        raccoon=rules.raccoon,
        auto_doubles=rules.auto_doubles,
        double_backgammon=rules.double_backgammon,
        last_roll=rules.last_roll,
        private=private,
        spectators_allowed=spectators_allowed,
        anonymous_spectators=anonymous_spectators,
        clock_delay=clock_delay,
        clock_bank=clock_bank,
        rated=(rules.length > 0) if rated is None else (bool(rated) and rules.length > 0),
        invite_code=secrets.token_urlsafe(12),
    )
    publish_match_on_commit(match)
    return match


def _lock_match(match_id=None, invite_code=None) -> Match:
    qs = Match.objects.select_for_update()
    try:
        if invite_code is not None:
            return qs.get(invite_code=str(invite_code))
        return qs.get(pk=int(match_id))
    except (Match.DoesNotExist, TypeError, ValueError):
        raise NotFound("match_not_found", "No such match.") from None


def match_join(*, player: Player, match_id=None, invite_code=None) -> Match:
    """Take the empty seat and start the first game. A private match is joined
    only through its invite code."""
    require_active(player)
    with transaction.atomic():
        match = _lock_match(match_id, invite_code)
        if match.status != Match.OPEN:
            raise Conflict("match_not_open", "This match is not waiting for an opponent.")
        if match.white_id == player.pk:
            raise Conflict("own_match", "You cannot join your own match.")
        if match.private and invite_code is None:
            raise Forbidden("private_match", "This match is private: join it through its invite link.")
        match.black = player
        match.status = Match.PLAYING
        match.started_at = timezone.now()
        match.white_bank_ms = match.black_bank_ms = clock.initial_bank_ms(match)
        match.white_away_since = match.black_away_since = None
        match.save(update_fields=["black", "status", "started_at", "white_bank_ms", "black_bank_ms",
                                  "white_away_since", "black_away_since"])
        start_game(match)
        publish_match_on_commit(match)
        return match


def match_leave(*, match_id, player: Player) -> Match:
    """Leave a match: cancel it while open (the creator), else forfeit it.

    Forfeiting a match to N points gives the opponent the match; leaving a
    money session ends it (the game in progress is lost at its current stakes).
    """
    with transaction.atomic():
        match = _lock_match(match_id)
        color = match.color_of(player)
        if color is None:
            raise Forbidden("not_a_player", "You are not playing in this match.")
        if match.status == Match.OPEN:
            match.status = Match.ABORTED
            match.end_reason = "cancelled"
            match.finished_at = timezone.now()
            match.save(update_fields=["status", "end_reason", "finished_at"])
            publish_match_on_commit(match)
            return match
        if match.status != Match.PLAYING:
            raise Conflict("match_over", "This match is over.")
        forfeit_match(match, color, "forfeit")
        return match


def forfeit_match(match: Match, color: str, reason: str, *, game: Game | None = None) -> None:
    """``color`` loses the match (leaving, time, absence): the game in progress is lost
    at its stakes, then the opponent wins a match to N points; a money session just ends.
    The caller holds the match lock."""
    if game is None:
        game = match.games.select_for_update().filter(status=Game.PLAYING).first()
    winner = None if match.length == 0 else ("black" if color == "white" else "white")
    if game is None:  # pragma: no cover - a playing match always has a game in progress
        end_match(match, winner_color=winner, reason=reason)
        return
    game.match = match
    state = game.game_state().forfeit(color)
    append_event(game, "forfeit", {"color": color, "reason": reason}, actor=match.player_of(color))
    finish_game(game, match, state, end_match_as=(winner, reason, Match.FINISHED))


def match_abort(*, match_id, reason: str = "aborted by an administrator") -> Match:
    """End a match with no winner and no rating change (an administrator's action)."""
    from .games import game_abort

    with transaction.atomic():
        match = _lock_match(match_id)
        if match.status in (Match.FINISHED, Match.ABORTED):
            raise Conflict("match_over", "This match is over.")
        game = match.games.filter(status=Game.PLAYING).first()
        if game is not None:
            game_abort(game_id=game.pk, reason=reason)
            match.refresh_from_db()
            return match
        match.status = Match.ABORTED
        match.end_reason = "aborted"
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "end_reason", "finished_at"])
        publish_match_on_commit(match)
        return match


def end_match(match: Match, *, winner_color: str | None, reason: str, status: str = Match.FINISHED) -> None:
    """Close the match; count it for both players and update ratings when rated.
    The caller holds the match lock."""
    match.status = status
    match.end_reason = reason
    match.finished_at = timezone.now()
    match.winner = match.player_of(winner_color) if winner_color else None
    match.save(update_fields=["status", "end_reason", "finished_at", "winner"])
    publish_match_on_commit(match)
    if status != Match.FINISHED:
        return
    players = sorted([match.white, match.black], key=lambda p: p.pk)
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[p.pk for p in players])}
    for player in locked.values():
        Player.objects.filter(pk=player.pk).update(
            matches_played=F("matches_played") + 1,
            matches_won=F("matches_won") + (1 if match.winner_id == player.pk else 0),
        )
    if match.rated and match.length > 0 and match.winner_id is not None:
        winner = locked[match.winner_id]
        loser = locked[match.black_id if match.winner_id == match.white_id else match.white_id]
        gain, loss = rating_changes(winner.rating, loser.rating, match.length,
                                    winner_experience=winner.experience, loser_experience=loser.experience)
        Player.objects.filter(pk=winner.pk).update(rating=F("rating") + gain, experience=F("experience") + match.length)
        Player.objects.filter(pk=loser.pk).update(rating=F("rating") + loss, experience=F("experience") + match.length)
