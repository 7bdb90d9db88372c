"""Notices by e-mail: "your turn" and "your time is running low" for correspondence matches,
to a verified address only, each kind on or off in the player's settings (``mail_turn``,
``mail_low``), each mail with a link that turns its kind off. The address is verified with a
signed link (Django's signing: the player and the address, valid three days).

"Your tournament match is ready" goes at once when a pairing's match is created, by e-mail
and push (``mail_tournament``), and to every page the player has open (the header's socket
joins the player's group, ``games.events.player_group``).

The same notices go by Web Push to the browsers the player allowed (``games.services.push``).

"Your turn" goes once per quiet period, not per move: the periodic ``notices`` job (the
workers) mails a player whose correspondence turn has waited ``GAMES_NOTICE_DELAY`` seconds
while not at the board, at most once per ``GAMES_NOTICE_QUIET`` seconds, one mail listing
every match waiting. "Time running low" goes once per decision, ``GAMES_NOTICE_LOW`` seconds
before its deadline. Mails leave after the commit that records them.
"""

from __future__ import annotations

from datetime import timedelta

from django.core import signing
from django.core.validators import validate_email
from django.core.exceptions import ValidationError
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext

from games import clock, conf
from games.errors import BadRequest, Conflict
from games.events import Batch, player_group, publish_on_commit
from games.models import Connection, Game, Match, Player
from games.selectors.tournaments import label_words
from games.services.lifecycle import lock_game
from games.services.notify import (
    KINDS, UNSUBSCRIBE_SALT, language_of, mail_later, notify, reachable, site_url, wants,
)
from games.services.players import require_active
from games.services.preferences import player_update_settings

VERIFY_SALT = "games.notices.verify"
VERIFY_MAX_AGE = 3 * 86_400


# -- the address ------------------------------------------------------------------------------


def player_set_email(*, player: Player, email: str) -> Player:
    """Change the account's e-mail address (empty: none); a new address is not verified."""
    require_active(player)
    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise BadRequest("bad_email", gettext("That is not an e-mail address.")) from None
    with transaction.atomic():
        locked = Player.objects.select_for_update(no_key=True, of=("self",)).select_related("user").get(pk=player.pk)
        if locked.user.email != email:
            locked.user.email = email
            locked.user.save(update_fields=["email"])
            locked.email_verified = ""
            locked.save(update_fields=["email_verified"])
    return locked


def email_verification_send(*, player: Player) -> str:
    """Mail the account's address a link that verifies it; returns the link's token."""
    require_active(player)
    email = player.user.email
    if not email:
        raise BadRequest("no_email", gettext("Set an e-mail address first."))
    token = signing.dumps({"p": player.pk, "e": email}, salt=VERIFY_SALT)
    link = site_url(f"/accounts/verify-email/{token}/")
    with translation.override(language_of(player)):
        subject = gettext("Verify your e-mail address")
        body = render_to_string("notices/verify.txt", {"player": player, "url": link})
    with transaction.atomic():
        mail_later(subject, body, email)
    return token


def email_verify(*, token: str) -> Player:
    """Verify the address a link was sent to (``bad_token``, ``token_expired``, ``email_changed``)."""
    try:
        data = signing.loads(str(token)[:500], salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE)
    except signing.SignatureExpired:
        raise BadRequest("token_expired", gettext("This link has expired: ask for a new one in your settings.")) from None
    except signing.BadSignature:
        raise BadRequest("bad_token", gettext("This link is not valid.")) from None
    with transaction.atomic():
        player = (Player.objects.select_for_update(no_key=True, of=("self",)).select_related("user")
                  .filter(pk=data.get("p")).first())
        if player is None:
            raise BadRequest("bad_token", gettext("This link is not valid."))
        if player.user.email != data.get("e"):
            raise Conflict("email_changed", gettext("Your address changed since this link was sent: ask for a new one."))
        player.email_verified = data["e"]
        player.save(update_fields=["email_verified"])
    return player


# -- unsubscribing ------------------------------------------------------------------------------


def notices_unsubscribe(*, token: str) -> tuple:
    """Turn off the kind of notice a mail's link names: ``(player, kind)``."""
    try:
        data = signing.loads(str(token)[:500], salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        raise BadRequest("bad_token", gettext("This link is not valid.")) from None
    player = Player.objects.filter(pk=data.get("p")).first()
    if player is None or data.get("k") not in KINDS:
        raise BadRequest("bad_token", gettext("This link is not valid."))
    player_update_settings(player=player, changes={name: False for name in KINDS[data["k"]]})
    return player, data["k"]


# -- the periodic job ---------------------------------------------------------------------------


def notices_send(*, now=None) -> dict:
    """Send the notices due at ``now``: ``{"turn": players mailed, "low": matches warned}``."""
    at = now or clock.now()
    return {"turn": _turn_notices(at), "low": _low_notices(at)}


def _turn_notices(at) -> int:
    delay = timedelta(seconds=int(conf.value("GAMES_NOTICE_DELAY")))
    quiet = timedelta(seconds=int(conf.value("GAMES_NOTICE_QUIET")))
    # Turns that began within the last quiet period (the index on clock_started_at).
    games = (Game.objects.filter(status=Game.PLAYING, match__corr_days__gt=0, clock_started_at__lte=at - delay,
                                 clock_started_at__gt=at - delay - quiet)
             .select_related("match", "match__white__user", "match__black__user").order_by("clock_started_at"))
    waiting = {}
    for game in games:
        player = game.match.player_of(game.clock_color) if game.clock_color else None
        if player is not None:
            waiting.setdefault(player.pk, (player, []))[1].append(game)
    at_board = set(Connection.objects.filter(player_id__in=list(waiting))
                   .values_list("player_id", "match_id"))
    sent = 0
    for pid, (player, games) in waiting.items():
        if not wants(player, "turn"):
            continue
        with transaction.atomic():
            locked = Player.objects.select_for_update(no_key=True, of=("self",)).get(pk=pid)
            last = locked.turn_noticed_at
            if last is not None and last > at - quiet:
                continue  # told within the quiet period
            fresh = [g for g in games if (pid, g.match_id) not in at_board
                     and (last is None or g.clock_started_at > last)]
            if not fresh or not reachable(player):
                continue  # nothing to tell, or nowhere to tell it: the quiet period does not start
            locked.turn_noticed_at = at
            locked.save(update_fields=["turn_noticed_at"])
            first, more = _opponent(fresh[0]), len(fresh) - 1
            told = notify(
                player, "turn",
                lambda: ngettext("Your turn in %(count)s match", "Your turn in %(count)s matches", len(fresh))
                % {"count": len(fresh)},
                lambda: (ngettext("Against %(name)s and %(count)s more", "Against %(name)s and %(count)s more", more)
                         % {"name": first, "count": more} if more else gettext("Against %(name)s") % {"name": first}),
                f"/games/{fresh[0].pk}/",
                {"games": [{"opponent": _opponent(g), "url": site_url(f"/games/{g.pk}/"),
                            "deadline": f"{g.clock_deadline:%Y-%m-%d %H:%M}" if g.clock_deadline else ""}
                           for g in fresh],
                 "matches_url": site_url("/matches/?turn=mine")})
            sent += 1 if told else 0
    return sent


def _opponent(game) -> Player:
    return game.match.player_of("black" if game.clock_color == "white" else "white")


def _low_notices(at) -> int:
    low = timedelta(seconds=int(conf.value("GAMES_NOTICE_LOW")))
    due = list(Game.objects.filter(status=Game.PLAYING, clock_deadline__gt=at, clock_deadline__lte=at + low,
                                   clock_warned=False, match__corr_days__gt=0).values_list("pk", flat=True))
    warned = 0
    for game_id in due:
        with transaction.atomic():
            game, match = lock_game(game_id)
            if game.clock_warned or game.status != Game.PLAYING or not game.clock_deadline:
                continue
            Game.objects.filter(pk=game.pk).update(clock_warned=True)  # once per decision, mailed or not
            player = match.player_of(game.clock_color) if game.clock_color else None
            if not wants(player, "low"):
                continue
            hours = max(0, int((game.clock_deadline - at).total_seconds() // 3600))
            opponent = _opponent(game)
            warned += 1 if notify(
                player, "low", lambda: gettext("Your time is running low"),
                lambda: ngettext("About %(hours)s hour left against %(name)s",
                                 "About %(hours)s hours left against %(name)s", hours) % {"hours": hours, "name": opponent},
                f"/games/{game.pk}/",
                {"hours": hours, "opponent": opponent, "deadline": f"{game.clock_deadline:%Y-%m-%d %H:%M}"}) else 0
    return warned


def notice_accepted(match: Match) -> bool:
    """Tell the creator of a correspondence match that an opponent took the seat (call inside the
    join's transaction). A live match's creator is in the waiting room: no notice."""
    creator, opponent = match.white, match.black
    if not match.corr_days or opponent is None or not wants(creator, "accepted"):
        return False
    return notify(creator, "accepted",
                  lambda: gettext("%(name)s accepted your invitation") % {"name": opponent},
                  lambda: gettext("Your correspondence match against %(name)s has begun.") % {"name": opponent},
                  f"/matches/{match.pk}/", {"opponent": opponent, "length": match.length})


# -- a tournament pairing ------------------------------------------------------------------------


def tournament_match_notice(player: Player, opponent: Player, *, tournament, match, label: str) -> bool:
    """Tell ``player`` that their match of ``tournament`` against ``opponent`` is ready: on
    their open pages at once (the ``/ws/me/`` socket), then by push and e-mail as their settings
    say, in their language. Returns whether it went by push or mail. ``label`` is the tournament
    core's English name of the match ("Semi-final"): the socket words it in its own language
    (``games.consumers.player``), the push and the mail in the player's."""
    url = f"/games/{match.games.order_by('number').values_list('pk', flat=True).first()}/"
    publish_on_commit(Batch(group=player_group(player.pk), notices=[{"t": "tournament_match", "d": {
        "tournament": tournament.pk, "name": tournament.name, "match": match.pk, "label": label,
        "opponent": opponent.display_name, "url": url}}]))
    if not wants(player, "tournament"):
        return False
    return notify(player, "tournament",
                  lambda: gettext("Your match in %(tournament)s is ready") % {"tournament": tournament.name},
                  lambda: gettext("%(label)s against %(opponent)s") % {"label": label_words(label),
                                                                        "opponent": opponent.display_name},
                  url, {"tournament": tournament, "opponent": opponent.display_name,
                        "label": lazy(label_words, str)(label),  # worded as the mail is, in the player's language
                        "page": site_url(f"/tournaments/{tournament.pk}/")})
