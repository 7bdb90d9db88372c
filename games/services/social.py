"""Around the board: chat, presence, claims and rematches."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import clock
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.events import match_group, notice_on_commit
from games.models import ChatMessage, Connection, Game, Match
from games.text import clean_text
from games.selectors.players import bot_level
from games.selectors.social import absence_grace, chat_dict, presence_dict
from games.services.lifecycle import MatchRecord, current_game, forfeit_match, lock_match, player_id_of, seat_of
from games.engine.match import OPTION_FIELDS
from games.services.matches import match_create, match_join
from games.services.players import require_active
from games import conf
from games.engine import other
from django.utils.translation import gettext


def abandon_after() -> timedelta:
    return timedelta(seconds=conf.value("GAMES_ABANDON_AFTER"))


# -- chat -----------------------------------------------------------------------------------


def chat_room_for(match: Match, player) -> str:
    """Players talk in the players' room, everyone else in the spectators' room."""
    return ChatMessage.PLAYERS if match.color_of(player_id_of(player)) else ChatMessage.SPECTATORS


def chat_text(player, text, max_length: int = ChatMessage.MAX_LENGTH) -> str:
    """A chat line's text from an active, logged-in ``player``, cleaned and within length."""
    if player is None:
        raise Forbidden("login_required", gettext("Log in to chat."))
    require_active(player)
    text = clean_text(text, field="text", code="bad_chat")
    if len(text) > max_length:
        raise BadRequest("chat_too_long", gettext("Chat messages are at most %(max_length)s characters.")
                % {"max_length": max_length})
    return text


def chat_post(*, match_id, player, text) -> ChatMessage:
    """Post a chat line to the author's room (players never see the spectators' room)."""
    text = chat_text(player, text)
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise NotFound("match_not_found", gettext("No such match."))
    room = chat_room_for(match, player)
    if room != ChatMessage.PLAYERS and getattr(player, "is_guest", False):
        raise Forbidden("guest_chat", gettext("Guests talk only with their opponent: sign up to chat with spectators."))
    with transaction.atomic():
        message = ChatMessage.objects.create(match=match, room=room, author=player, name=player.display_name,
                                             text=text)
        notice_on_commit(match_group(match.pk), {"t": "chat", "room": room, "d": chat_dict(message)})
    return message


# -- presence --------------------------------------------------------------------------------


def _publish_presence(match: Match) -> dict:
    data = presence_dict(match)
    notice_on_commit(match_group(match.pk), {"t": "presence", "d": data})
    return data


def presence_join(*, match_id, channel_name: str, player, role: str) -> dict:
    with transaction.atomic():
        match = lock_match(match_id)
        Connection.objects.update_or_create(
            channel_name=channel_name,
            defaults={"match": match, "player_id": player_id_of(player), "role": role, "seen_at": timezone.now()})
        if role in ("white", "black") and getattr(match, f"{role}_away_since") is not None:
            setattr(match, f"{role}_away_since", None)
            match.save(update_fields=[f"{role}_away_since"])
            _lobby_follows(match)
        return _publish_presence(match)


def _lobby_follows(match: Match) -> None:
    """A player left or came back: the lobby lists a game in progress only while someone
    is at the table (``services.lobby.deserted``)."""
    if match.status == Match.PLAYING:
        record = MatchRecord(match)
        record.lobby_changed()
        record.commit()


def presence_leave(*, channel_name: str) -> dict | None:
    """A socket closed (or its heartbeat stopped): drop its row; a player with no socket
    left is away from now on."""
    with transaction.atomic():
        conn = Connection.objects.filter(channel_name=channel_name).first()
        if conn is None:
            return None
        match = lock_match(conn.match_id)
        deleted, _ = Connection.objects.filter(pk=conn.pk).delete()
        if not deleted:
            return None  # someone else removed it meanwhile
        if conn.role in ("white", "black") and match.status == Match.PLAYING:
            if not Connection.objects.filter(match=match, role=conn.role).exists():
                setattr(match, f"{conn.role}_away_since", clock.now())
                match.save(update_fields=[f"{conn.role}_away_since"])
                _lobby_follows(match)
        return _publish_presence(match)


def presence_heartbeat(channel_names) -> int:
    """Refresh the heartbeat of the sockets a web process holds (one query per 500)."""
    names = list(channel_names)
    now = timezone.now()
    count = 0
    for i in range(0, len(names), 500):
        count += Connection.objects.filter(channel_name__in=names[i:i + 500]).update(seen_at=now)
    return count


def match_claim(*, match_id, player) -> Match:
    """Claim the match when the opponent has been away longer than the grace period; in a
    correspondence match (where players are away most of the time) when the opponent's time
    ran out (docs/CORRESPONDENCE.md)."""
    with transaction.atomic():
        match = lock_match(match_id)
        color = seat_of(match, player)
        if match.status != Match.PLAYING:
            raise Conflict("match_over", gettext("This match is over."))
        absent = other(color)
        if clock.is_correspondence(match):
            return _claim_on_time(match, absent)
        away = getattr(match, f"{absent}_away_since")
        if away is None or bot_level(match.player_of(absent)) is not None:
            raise Conflict("opponent_present", gettext("Your opponent is connected."))
        waited = clock.now() - away
        if waited < absence_grace():
            left = int((absence_grace() - waited).total_seconds()) + 1
            raise Conflict("too_early", gettext("Your opponent may still come back: you can claim in %(left)s s.")
                    % {"left": left})
        record = MatchRecord(match)
        forfeit_match(record, match, absent, "abandoned")
        record.commit()
        return match


def _claim_on_time(match: Match, late: str) -> Match:
    game = current_game(match)
    if game is None or game.clock_color != late or game.clock_deadline is None:
        raise Conflict("not_timed_out", gettext("Your opponent is not on the clock: there is nothing to claim."))
    if clock.now() < game.clock_deadline:
        raise Conflict("not_timed_out", gettext("Your opponent still has time: you can claim once it runs out (%(clock_deadline)s UTC).")
                % {"clock_deadline": format(game.clock_deadline, '%Y-%m-%d %H:%M')})
    record = MatchRecord(match)
    forfeit_match(record, match, late, "timeout", game=game)
    record.commit()
    return match


# -- rematch ------------------------------------------------------------------------------------


def match_rematch(*, match_id, player) -> Match:
    """Offer a new match with the same settings; the opponent's rematch accepts it."""
    with transaction.atomic():
        old = lock_match(match_id)
        color = seat_of(old, player)
        if old.status != Match.FINISHED:
            raise Conflict("match_not_over", gettext("A rematch can be offered once the match is over."))
        last = Game.objects.filter(match=old).order_by("-number").first()
        last.match = old
        record = MatchRecord(old)
        offered = Match.objects.filter(rematch_of=old, status=Match.OPEN).first()
        if offered is None:
            if Match.objects.filter(rematch_of=old).exists():
                raise Conflict("rematch_taken", gettext("The rematch has already started."))
            options = {name: getattr(old, name) for name in OPTION_FIELDS}
            new = match_create(creator=old.player_of(color), private=True, spectators_allowed=old.spectators_allowed,
                               anonymous_spectators=old.anonymous_spectators, rated=old.rated, aids=old.aids,
                               clock_delay=old.clock_delay, clock_bank=old.clock_bank, corr_days=old.corr_days,
                               corr_bank_days=old.corr_bank_days, **options)
            new.rematch_of = old
            new.save(update_fields=["rematch_of"])
            record.add(last, "rematch_offer", {"color": color, "match": new.pk}, state=None,
                       actor=old.player_of(color))
            record.commit()
            return new
        if offered.white_id == player_id_of(player):
            raise Conflict("rematch_pending", gettext("You offered the rematch: waiting for your opponent."))
        new = match_join(player=old.player_of(color), invite_code=offered.invite_code)
        game = new.games.get()
        record.add(last, "rematch_start", {"color": color, "match": new.pk, "game": game.pk}, state=None,
                   actor=old.player_of(color))
        record.commit()
        return new
