"""Around a chouette's board: the table, team and spectators' chats, suggested plays shown
to the team, and presence (an absent member is dropped from the line between games)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.selectors import chouettes as chouette_view
from games.engine import chouette as ce
from games.engine.moves import check_play
from games.engine.errors import IllegalAction, IllegalPlay
from games.events import Batch, chouette_group, publish_on_commit
from games.errors import BadRequest, Forbidden, NotFound
from games.models import Chouette, ChouetteChat, ChouetteSeat
from games.services.players import require_active
from games.services.social import chat_text
from django.utils.translation import gettext


def _post(chouette: Chouette, message: ChouetteChat) -> None:
    publish_on_commit(Batch(group=chouette_group(chouette.pk),
                            notices=[{"t": "chat", "room": message.room, "game": message.game_id,
                                      "d": chouette_view.chat_dict(message)}]))


def _chouette(chouette_id) -> Chouette:
    c = Chouette.objects.filter(pk=chouette_id).first()
    if c is None:
        raise NotFound("chouette_not_found", gettext("No such chouette."))
    return c


def chouette_chat(*, chouette_id, player, text, room: str | None = None) -> ChouetteChat:
    """Post to the table, the team (members of the current game's team only) or, for anyone
    not seated, the spectators' room. A guest talks only with those they play with: the team,
    and the table of a private chouette; never a public table's room, which anyone may sit at
    and read, nor the spectators' (``guest_chat``, as in a match)."""
    text = chat_text(player, text, ChouetteChat.MAX_LENGTH)
    c = _chouette(chouette_id)
    rooms = chouette_view.chat_rooms(c, player.pk)
    room = room or rooms[0]
    if room not in rooms:
        raise Forbidden("not_your_room", gettext("You cannot write in that room."))
    if getattr(player, "is_guest", False) and (room == ChouetteChat.SPECTATORS
                                               or (room == ChouetteChat.TABLE and not c.private)):
        raise Forbidden("guest_chat", gettext("Guests talk only with the players of their own games: sign up to chat at a public table."))
    row, _s, _g = chouette_view.current(c)
    with transaction.atomic():
        message = ChouetteChat.objects.create(chouette=c, room=room, author=player, name=player.display_name,
                                              text=text, game=row if room == ChouetteChat.TEAM else None)
        _post(c, message)
    return message


def chouette_suggest(*, chouette_id, player, steps) -> ChouetteChat:
    """A team member who may consult suggests a play for the dice on the board; it shows to
    the team (docs/CHOUETTE.md: consultation)."""
    if player is None:
        raise Forbidden("login_required", gettext("Log in to play."))
    require_active(player)
    c = _chouette(chouette_id)
    row, _s, game = chouette_view.current(c)
    if game is None or game.phase != ce.MOVE or game.on_roll != ce.TEAM:
        raise BadRequest("no_play_to_suggest", gettext("The team has no dice to play now."))
    if not game.may_consult(player.pk):
        raise Forbidden("may_not_consult", gettext("You may not consult in this game (your cube is not turned, or you are out)."))
    try:
        play = check_play(game.position, game.dice, steps)
    except (IllegalPlay, IllegalAction, TypeError, ValueError, KeyError) as exc:
        raise BadRequest(getattr(exc, "code", "bad_play"), getattr(exc, "message", gettext("That play is not legal."))) from None
    play = [s.to_dict() for s in play.steps]
    # the stored record, in English; every reader's page words the line from ``play`` (chouette_state.mjs)
    text = "suggests " + " ".join(f"{s['from']}/{s['to']}" for s in play)
    with transaction.atomic():
        message = ChouetteChat.objects.create(chouette=c, room=ChouetteChat.TEAM, game=row, author=player,
                                              name=player.display_name, text=text, play=play)
        _post(c, message)
    return message


def chouette_presence(*, chouette_id, player_id, here: bool) -> None:
    """A seated player's socket opened (``here``) or closed: the table sees him away or back
    (a ``presence`` notice)."""
    if player_id is None:
        return
    with transaction.atomic():
        seats = ChouetteSeat.objects.filter(chouette_id=chouette_id, player_id=player_id)
        if here:
            seats = seats.filter(away_since__isnull=False)  # back: a notice only if he was away
        changed = seats.update(away_since=None if here else timezone.now())
        if changed:
            publish_on_commit(Batch(group=chouette_group(chouette_id), notices=[
                {"t": "presence", "d": {"player": player_id, "away": not here}}]))
