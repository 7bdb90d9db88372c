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
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import override

from games import clock, conf
from games.errors import BadRequest, Conflict
from games.events import Batch, player_group, publish_on_commit
from games.models import Connection, Game, Player
from games.services.lifecycle import lock_game
from games.services.players import require_active
from games.services.preferences import player_update_settings
from games.services.push import push_later, push_targets

VERIFY_SALT = "games.notices.verify"
UNSUBSCRIBE_SALT = "games.notices.unsubscribe"
VERIFY_MAX_AGE = 3 * 86_400
KINDS = {"turn": "mail_turn", "low": "mail_low", "tournament": "mail_tournament"}  # notice kind -> the setting that turns it off


def site_url(path: str) -> str:
    return str(conf.value("GAMES_SITE_URL")).rstrip("/") + path


def verified_address(player: Player) -> str | None:
    """The address notices go to: the account's, if the player verified that very address."""
    email = player.user.email
    return email if email and player.email_verified == email else None


def _mail(subject: str, body: str, to: str) -> None:
    transaction.on_commit(lambda: send_mail(subject, body, None, [to], fail_silently=False))


# -- the address ------------------------------------------------------------------------------


def player_set_email(*, player: Player, email: str) -> Player:
    """Change the account's e-mail address (empty: none); a new address is not verified."""
    require_active(player)
    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise BadRequest("bad_email", "That is not an e-mail address.") from None
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
        raise BadRequest("no_email", "Set an e-mail address first.")
    token = signing.dumps({"p": player.pk, "e": email}, salt=VERIFY_SALT)
    link = site_url(f"/accounts/verify-email/{token}/")
    with transaction.atomic():
        _mail("Verify your e-mail address",
              f"Hello {player.display_name},\n\nOpen this link to receive notices of your matches at "
              f"this address (valid three days):\n\n{link}\n\nIf you did not ask for it, ignore this mail.\n",
              email)
    return token


def email_verify(*, token: str) -> Player:
    """Verify the address a link was sent to (``bad_token``, ``token_expired``, ``email_changed``)."""
    try:
        data = signing.loads(str(token)[:500], salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE)
    except signing.SignatureExpired:
        raise BadRequest("token_expired", "This link has expired: ask for a new one in your settings.") from None
    except signing.BadSignature:
        raise BadRequest("bad_token", "This link is not valid.") from None
    with transaction.atomic():
        player = (Player.objects.select_for_update(no_key=True, of=("self",)).select_related("user")
                  .filter(pk=data.get("p")).first())
        if player is None:
            raise BadRequest("bad_token", "This link is not valid.")
        if player.user.email != data.get("e"):
            raise Conflict("email_changed", "Your address changed since this link was sent: ask for a new one.")
        player.email_verified = data["e"]
        player.save(update_fields=["email_verified"])
    return player


# -- unsubscribing ------------------------------------------------------------------------------


def unsubscribe_token(player: Player, kind: str) -> str:
    return signing.dumps({"p": player.pk, "k": kind}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_link(player: Player, kind: str) -> str:
    return site_url(f"/notices/unsubscribe/{unsubscribe_token(player, kind)}/")


def notices_unsubscribe(*, token: str) -> tuple:
    """Turn off the kind of notice a mail's link names: ``(player, kind)``."""
    try:
        data = signing.loads(str(token)[:500], salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        raise BadRequest("bad_token", "This link is not valid.") from None
    player = Player.objects.filter(pk=data.get("p")).first()
    if player is None or data.get("k") not in KINDS:
        raise BadRequest("bad_token", "This link is not valid.")
    player_update_settings(player=player, changes={KINDS[data["k"]]: False})
    return player, data["k"]


# -- the periodic job ---------------------------------------------------------------------------


def _wants(player: Player, kind: str) -> bool:
    """Whether ``player`` is to be told of ``kind`` at all (by e-mail, push or both)."""
    if player is None or player.is_bot or player.is_guest or player.suspended:
        return False
    if not (player.settings or {}).get(KINDS[kind], True):
        return False
    return player.vacation_until is None or player.vacation_until <= clock.now()  # on vacation: nothing


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
        if not _wants(player, "turn"):
            continue
        with transaction.atomic():
            locked = Player.objects.select_for_update(no_key=True, of=("self",)).get(pk=pid)
            last = locked.turn_noticed_at
            if last is not None and last > at - quiet:
                continue  # told within the quiet period
            fresh = [g for g in games if (pid, g.match_id) not in at_board
                     and (last is None or g.clock_started_at > last)]
            if not fresh or not (verified_address(player) or push_targets(player)):
                continue  # nothing to tell, or nowhere to tell it: the quiet period does not start
            locked.turn_noticed_at = at
            locked.save(update_fields=["turn_noticed_at"])
            lines = "\n".join(f"- against {g.match.player_of('black' if g.clock_color == 'white' else 'white')}"
                              f": {site_url(f'/games/{g.pk}/')} (time left until "
                              f"{g.clock_deadline:%Y-%m-%d %H:%M} UTC)" for g in fresh)
            subject = f"Your turn in {len(fresh)} match{'es' * (len(fresh) != 1)}"
            pushed = push_later(player, subject, f"Against {_opponent(fresh[0])} and {len(fresh) - 1} more"
                                if len(fresh) > 1 else f"Against {_opponent(fresh[0])}", f"/games/{fresh[0].pk}/")
            address = verified_address(player)
            if address:
                _mail(subject, f"Hello {player.display_name},\n\nIt is your turn:\n{lines}\n\nAll your matches: "
                      f"{site_url('/matches/?turn=mine')}\n\nNo more of these mails: "
                      f"{unsubscribe_link(player, 'turn')}\n", address)
            sent += 1 if (address or pushed) else 0
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
            if not _wants(player, "low"):
                continue
            hours = max(0, int((game.clock_deadline - at).total_seconds() // 3600))
            pushed = push_later(player, "Your time is running low",
                                f"About {hours} hours left against {_opponent(game)}", f"/games/{game.pk}/")
            address = verified_address(player)
            if not address:
                warned += 1 if pushed else 0
                continue
            _mail("Your time is running low",
                  f"Hello {player.display_name},\n\nYou have about {hours} hours left to play in your match against "
                  f"{match.player_of('black' if game.clock_color == 'white' else 'white')}: "
                  f"{site_url(f'/games/{game.pk}/')}\nAfter {game.clock_deadline:%Y-%m-%d %H:%M} UTC your opponent "
                  f"may claim the match.\n\nNo more of these mails: {unsubscribe_link(player, 'low')}\n", address)
            warned += 1
    return warned


# -- a tournament pairing ------------------------------------------------------------------------


def tournament_match_notice(player: Player, opponent: Player, *, tournament, match, label: str) -> bool:
    """Tell ``player`` that their match of ``tournament`` against ``opponent`` is ready: on
    their open pages at once, then by push and e-mail as their settings say (in their
    language). Returns whether it went by push or mail."""
    url = f"/games/{match.games.order_by('number').values_list('pk', flat=True).first()}/"
    publish_on_commit(Batch(group=player_group(player.pk), notices=[{"t": "tournament_match", "d": {
        "tournament": tournament.pk, "name": tournament.name, "match": match.pk, "label": label,
        "opponent": opponent.display_name, "url": url}}]))
    if not _wants(player, "tournament"):
        return False
    with override((player.settings or {}).get("language") or None):
        subject = _("Your match in %(tournament)s is ready") % {"tournament": tournament.name}
        body = _("%(label)s against %(opponent)s") % {"label": label, "opponent": opponent.display_name}
        pushed = push_later(player, subject, body, url)
        address = verified_address(player)
        if address:
            _mail(subject, _("Hello %(name)s,\n\n%(line)s: %(url)s\n\nThe tournament: %(page)s\n\n"
                             "No more of these mails: %(stop)s\n") % {
                "name": player.display_name, "line": body, "url": site_url(url),
                "page": site_url(f"/tournaments/{tournament.pk}/"), "stop": unsubscribe_link(player, "tournament")},
                  address)
    return bool(pushed or address)
