"""Web Push: the browsers a player allowed to receive notices (``PushSubscription``), and the
sending of a notice to them with pywebpush, signed with the site's VAPID keys
(``GAMES_VAPID_PUBLIC_KEY`` / ``GAMES_VAPID_PRIVATE_KEY`` from the environment; without them
nothing is pushed). The same notices as by e-mail (``games.services.notices``), when the
player's ``push`` setting is on. A subscription the push service says is gone (404, 410) is
deleted. Pushes leave after the commit that records the notice.
"""

from __future__ import annotations

import json
import logging

from django.db import transaction

from games import conf
from games.errors import BadRequest
from games.models import Player, PushSubscription
from games.services.players import require_active
from django.utils.translation import gettext

logger = logging.getLogger("games.push")


def push_configured() -> bool:
    return bool(conf.value("GAMES_VAPID_PUBLIC_KEY") and conf.value("GAMES_VAPID_PRIVATE_KEY"))


def push_subscribe(*, player: Player, subscription) -> PushSubscription:
    """Keep a browser's subscription (``{"endpoint", "keys": {"p256dh", "auth"}}``, as the
    browser's ``PushSubscription.toJSON()`` gives it); ``bad_subscription`` otherwise."""
    require_active(player)
    keys = subscription.get("keys") if isinstance(subscription, dict) else None
    endpoint = subscription.get("endpoint") if isinstance(subscription, dict) else None
    if (not isinstance(endpoint, str) or not endpoint.startswith(("https://", "http://")) or len(endpoint) > 1000
            or not isinstance(keys, dict) or not all(isinstance(keys.get(k), str) and 0 < len(keys[k]) <= 200
                                                     for k in ("p256dh", "auth"))):
        raise BadRequest("bad_subscription", gettext("A subscription is {\"endpoint\": url, \"keys\": {\"p256dh\", \"auth\"}}."))
    sub, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"player": player, "p256dh": keys["p256dh"], "auth": keys["auth"]})
    return sub


def push_unsubscribe(*, player: Player, endpoint) -> int:
    return PushSubscription.objects.filter(player=player, endpoint=str(endpoint)[:1000]).delete()[0]


def push_targets(player: Player) -> list:
    """The subscriptions a notice to ``player`` goes to (none when push is off)."""
    if not push_configured() or not (player.settings or {}).get("push", True):
        return []
    return list(PushSubscription.objects.filter(player=player))


def push_later(player: Player, title: str, body: str, url: str) -> int:
    """Push a notice to every browser of ``player`` after the commit; how many."""
    subs = push_targets(player)
    if subs:
        payload = json.dumps({"title": title, "body": body, "url": url})
        transaction.on_commit(lambda: [_send(sub, payload) for sub in subs])
    return len(subs)


def _send(sub: PushSubscription, payload: str) -> bool:
    from pywebpush import WebPushException, webpush

    try:
        webpush({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}, data=payload,
                vapid_private_key=conf.value("GAMES_VAPID_PRIVATE_KEY"),
                vapid_claims={"sub": conf.value("GAMES_VAPID_SUBJECT")}, timeout=10)
        return True
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            PushSubscription.objects.filter(pk=sub.pk).delete()  # the browser unsubscribed
        logger.warning("push to %s failed: %s", sub.endpoint[:60], exc)
    except Exception as exc:  # noqa: BLE001 - a push service that is down must not stop the notices
        logger.warning("push to %s failed: %s: %s", sub.endpoint[:60], type(exc).__name__, exc)
    return False
