"""Chat, presence, claims, rematches and the periodic sweep (clocks, abandoned matches)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from ..errors import BadRequest, Conflict, Forbidden
from ..events import publish_data_on_commit, publish_match_on_commit
from ..models import ChatMessage, Connection, Game, Match, Player
from . import clock
from .games import append_event, lock_game, seat_of, time_out
from .matches import OPTION_FIELDS, _lock_match, forfeit_match, match_abort, match_create, match_join
from .players import require_active


def absence_grace() -> timedelta:
    return timedelta(seconds=getattr(settings, "GAMES_ABSENCE_GRACE", 120))


def abandon_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "GAMES_ABANDON_AFTER", 1800))


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


# -- chat -----------------------------------------------------------------------------------


def chat_room_for(match: Match, player: Player | None) -> str:
    """Players talk in the players' room, everyone else in the spectators' room."""
    return ChatMessage.PLAYERS if match.color_of(player) else ChatMessage.SPECTATORS


def chat_post(*, match_id, player: Player | None, text) -> ChatMessage:
    """Post a chat line to the author's room (players never see the spectators' room)."""
    if player is None:
        raise Forbidden("login_required", "Log in to chat.")
    require_active(player)
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("bad_chat", "A chat message needs some text.")
    text = " ".join(text.split())
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: JSON can carry it, the database cannot
        raise BadRequest("bad_chat", "That text is not valid Unicode.") from None
    if len(text) > ChatMessage.MAX_LENGTH:
        raise BadRequest("chat_too_long", f"Chat messages are at most {ChatMessage.MAX_LENGTH} characters.")
    with transaction.atomic():
        match = _lock_match(match_id)
        room = chat_room_for(match, player)
        message = ChatMessage.objects.create(match=match, room=room, author=player,
                                             name=player.display_name, text=text)
        publish_data_on_commit({"match": match.pk, "t": "chat", "room": room, "d": chat_dict(message)})
        return message


def chat_dict(message: ChatMessage) -> dict:
    return {"id": message.pk, "room": message.room, "name": message.name, "author": message.author_id,
            "text": message.text, "at": message.created_at.isoformat()}


def chat_recent(match: Match, room: str, limit: int = 50) -> list:
    lines = ChatMessage.objects.filter(match=match, room=room).order_by("-id")[:limit]
    return [chat_dict(m) for m in reversed(lines)]


# -- presence --------------------------------------------------------------------------------


def presence_dict(match: Match) -> dict:
    """Who is connected, and how many spectators are watching."""
    conns = Connection.objects.filter(match=match)
    roles = list(conns.values_list("role", flat=True))

    def seat(color):
        away = match.white_away_since if color == "white" else match.black_away_since
        return {"connected": color in roles, "awaySince": away.isoformat() if away else None}

    return {"white": seat("white"), "black": seat("black"), "spectators": roles.count("spectator")}


def presence_join(*, match_id, channel_name: str, player: Player | None, role: str) -> dict:
    with transaction.atomic():
        match = _lock_match(match_id)
        Connection.objects.update_or_create(channel_name=channel_name,
                                            defaults={"match": match, "player": player, "role": role})
        if role in ("white", "black"):
            setattr(match, f"{role}_away_since", None)
            match.save(update_fields=[f"{role}_away_since"])
        data = presence_dict(match)
        publish_data_on_commit({"match": match.pk, "t": "presence", "d": data})
        return data


def presence_leave(*, channel_name: str) -> dict | None:
    with transaction.atomic():
        conn = Connection.objects.filter(channel_name=channel_name).first()
        if conn is None:
            return None
        match = _lock_match(conn.match_id)
        conn.delete()
        if conn.role in ("white", "black") and match.status == Match.PLAYING:
            if not Connection.objects.filter(match=match, role=conn.role).exists():
                setattr(match, f"{conn.role}_away_since", clock.now())
                match.save(update_fields=[f"{conn.role}_away_since"])
        data = presence_dict(match)
        publish_data_on_commit({"match": match.pk, "t": "presence", "d": data})
        return data


def match_claim(*, match_id, player: Player) -> Match:
    """Claim the match when the opponent has been away longer than the grace period."""
    with transaction.atomic():
        match = _lock_match(match_id)
        color = seat_of(match, player)
        if match.status != Match.PLAYING:
            raise Conflict("match_over", "This match is over.")
        other = "black" if color == "white" else "white"
        away = getattr(match, f"{other}_away_since")
        if away is None:
            raise Conflict("opponent_present", "Your opponent is connected.")
        waited = clock.now() - away
        if waited < absence_grace():
            left = int((absence_grace() - waited).total_seconds()) + 1
            raise Conflict("too_early", f"Your opponent may still come back: you can claim in {left} s.")
        forfeit_match(match, other, "abandoned")
        return match


# -- rematch ------------------------------------------------------------------------------------


def match_rematch(*, match_id, player: Player) -> Match:
    """Offer a new match with the same settings; the opponent's rematch accepts it."""
    with transaction.atomic():
        old = _lock_match(match_id)
        color = seat_of(old, player)
        if old.status != Match.FINISHED:
            raise Conflict("match_not_over", "A rematch can be offered once the match is over.")
        last = Game.objects.select_for_update().filter(match=old).order_by("-number").first()
        last.match = old
        offered = Match.objects.filter(rematch_of=old, status=Match.OPEN).first()
        if offered is None:
            if Match.objects.filter(rematch_of=old).exists():
                raise Conflict("rematch_taken", "The rematch has already started.")
            options = {name: getattr(old, name) for name in OPTION_FIELDS}
            new = match_create(creator=player, private=True, spectators_allowed=old.spectators_allowed,
                               anonymous_spectators=old.anonymous_spectators, rated=old.rated,
                               clock_delay=old.clock_delay, clock_bank=old.clock_bank, **options)
            new.rematch_of = old
            new.save(update_fields=["rematch_of"])
            append_event(last, "rematch_offer", {"color": color, "match": new.pk}, actor=player)
            last.save(update_fields=["version"])
            return new
        if offered.white_id == player.pk:
            raise Conflict("rematch_pending", "You offered the rematch: waiting for your opponent.")
        new = match_join(player=player, invite_code=offered.invite_code)
        game = new.games.get()
        append_event(last, "rematch_start", {"color": color, "match": new.pk, "game": game.pk}, actor=player)
        last.save(update_fields=["version"])
        return new


# -- the sweep ------------------------------------------------------------------------------------


def sweep(*, now=None) -> dict:
    """Forfeit matches whose clock ran out and close abandoned ones. Safe to run from
    every server process at once: each match is re-checked under its lock."""
    at = now or clock.now()
    timeouts = abandoned = 0
    for game_id in Game.objects.filter(status=Game.PLAYING, clock_deadline__lte=at).values_list("pk", flat=True):
        with transaction.atomic():
            game, match = lock_game(game_id)
            if game.status == Game.PLAYING and game.clock_deadline and game.clock_deadline <= at:
                time_out(game, match)
                timeouts += 1
    limit = at - abandon_after()
    stale = Match.objects.filter(Q(white_away_since__lte=limit) | Q(black_away_since__lte=limit),
                                 status=Match.PLAYING).values_list("pk", flat=True)
    for match_id in stale:
        with transaction.atomic():
            match = _lock_match(match_id)
            if match.status != Match.PLAYING:
                continue
            gone = [c for c in ("white", "black")
                    if getattr(match, f"{c}_away_since") and getattr(match, f"{c}_away_since") <= limit]
            if len(gone) == 2:
                match_abort(match_id=match.pk, reason="both players left")
            elif gone:
                forfeit_match(match, gone[0], "abandoned")
            abandoned += 1
    return {"timeouts": timeouts, "abandoned": abandoned}


__all__ = ["chat_post", "chat_recent", "presence_join", "presence_leave", "presence_dict", "match_claim",
           "match_rematch", "sweep", "match_group", "chat_room_for", "publish_match_on_commit"]
