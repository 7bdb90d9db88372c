"""Telling a player of one notice, in their own language (docs/CORRESPONDENCE.md, "Notices"):
pushed to the browsers they allowed (``games.services.push``) and mailed to their verified
address, or, when they chose the daily digest (the ``digest`` setting), kept as a
:class:`~games.models.PendingNotice` and mailed with the others of the day by the workers'
periodic ``digest`` job (:func:`digests_send`).

Notices are sent from workers and from other players' requests, so the text is worded in the
recipient's stored language (the ``language`` setting; else the site's default) with
``translation.override``, never in the language of the request that caused it. The mails'
bodies are the templates ``notices/<kind>.txt``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Min
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from games import clock, conf
from games.models import PendingNotice, Player
from games.services.push import push_later, push_targets

UNSUBSCRIBE_SALT = "games.notices.unsubscribe"
# Notice kind -> the settings its mail's link turns off (the digest's link: every kind it carries).
KINDS = {"turn": ("mail_turn",), "low": ("mail_low",), "accepted": ("mail_accepted",), "tournament": ("mail_tournament",),
         "digest": ("mail_turn", "mail_accepted")}
HELD = ("turn", "accepted")  # the kinds a digest holds back ("time running low" would come too late)


def site_url(path: str) -> str:
    return str(conf.value("GAMES_SITE_URL")).rstrip("/") + path


def verified_address(player: Player) -> str | None:
    """The address notices go to: the account's, if the player verified that very address."""
    email = player.user.email
    return email if email and player.email_verified == email else None


def language_of(player: Player) -> str:
    """The language a player reads: their ``language`` setting, else the site's default."""
    chosen = (player.settings or {}).get("language")
    return chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def mail_later(subject: str, body: str, to: str) -> None:
    """Send a mail after the commit that records it."""
    transaction.on_commit(lambda: send_mail(subject, body, None, [to], fail_silently=False))


def unsubscribe_link(player: Player, kind: str) -> str:
    token = signing.dumps({"p": player.pk, "k": kind}, salt=UNSUBSCRIBE_SALT)
    return site_url(f"/notices/unsubscribe/{token}/")


def wants(player: Player | None, kind: str) -> bool:
    """Whether ``player`` is to be told of ``kind`` at all (by e-mail, push or both)."""
    if player is None or player.is_bot or player.is_guest or player.suspended:
        return False
    if not all((player.settings or {}).get(name, True) for name in KINDS[kind]):
        return False
    return player.vacation_until is None or player.vacation_until <= clock.now()  # on vacation: nothing


def reachable(player: Player) -> bool:
    return bool(verified_address(player) or push_targets(player))


def notify(player: Player, kind: str, title, text, path: str, context: dict | None = None) -> bool:
    """Tell ``player`` of one notice of ``kind`` (call inside the transaction that records it):
    ``title`` and ``text`` (the push's; the mail's subject is the title) are callables that word
    them, run in the player's language, as is the mail's body (``notices/<kind>.txt`` with
    ``context``). True when it went somewhere (a browser, the mail or the digest)."""
    with translation.override(language_of(player)):
        title, text = str(title()), str(text())
        address = verified_address(player)
        held = address and kind in HELD and (player.settings or {}).get("digest", False)
        body = None
        if address and not held:
            body = render_to_string(f"notices/{kind}.txt", {
                **(context or {}), "player": player, "url": site_url(path),
                "unsubscribe": unsubscribe_link(player, kind)})
    pushed = push_later(player, title, text, path)
    if held:
        PendingNotice.objects.create(player=player, kind=kind, title=title[:200], text=text[:500], url=path[:300],
                                     created_at=clock.now())
    elif address:
        mail_later(title, body, address)
    return bool(address or pushed)


# -- the daily digest ---------------------------------------------------------------------------


def digests_send(*, now=None) -> int:
    """Mail every player whose oldest held notice is a day old (``GAMES_DIGEST_PERIOD`` seconds)
    one digest of all their held notices; how many digests went. A notice waits at most a day, and
    a player gets at most one digest a day."""
    at = now or clock.now()
    period = timedelta(seconds=int(conf.value("GAMES_DIGEST_PERIOD")))
    due = list(PendingNotice.objects.values("player_id").annotate(first=Min("created_at"))
               .filter(first__lte=at - period).values_list("player_id", flat=True))
    sent = 0
    for pid in due:
        with transaction.atomic():
            player = Player.objects.select_for_update(no_key=True, of=("self",)).select_related("user").get(pk=pid)
            notices = list(PendingNotice.objects.filter(player=player, created_at__lte=at).order_by("created_at"))
            PendingNotice.objects.filter(pk__in=[n.pk for n in notices]).delete()
            address = verified_address(player)
            if not notices or not address:
                continue  # the address changed since: the held notices are dropped
            with translation.override(language_of(player)):
                subject = gettext("Your notices of the day")
                body = render_to_string("notices/digest.txt", {
                    "player": player, "notices": [{"title": n.title, "text": n.text, "url": site_url(n.url)}
                                                  for n in notices],
                    "settings_url": site_url("/settings/"), "unsubscribe": unsubscribe_link(player, "digest")})
            mail_later(subject, body, address)
            sent += 1
    return sent
