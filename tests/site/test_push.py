"""Web Push through pywebpush to a stubbed push service (a local HTTP server that records what
it is sent): a browser's subscription kept, the "your turn" notice encrypted to it and signed
with the site's VAPID key, a subscription the service says is gone deleted, a bad one refused,
the service worker served from the root (time moved with clock.freeze, never slept)."""

import base64
import json
import os
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import Client

from games import clock, services
from games.dice import ScriptedDice
from games.models import PushSubscription

pytestmark = pytest.mark.django_db

START = clock.now()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def public_point(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


class PushService:
    """A stub of a browser vendor's push service: records each request; answers ``status``."""

    def __init__(self):
        self.received, self.status = [], 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server spelling
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def push_service(settings):
    vapid = ec.generate_private_key(ec.SECP256R1())
    settings.GAMES_VAPID_PRIVATE_KEY = b64(vapid.private_bytes(serialization.Encoding.DER,
                                                               serialization.PrivateFormat.PKCS8,
                                                               serialization.NoEncryption()))
    settings.GAMES_VAPID_PUBLIC_KEY = b64(public_point(vapid))
    settings.GAMES_VAPID_SUBJECT = "mailto:admin@example.com"
    settings.GAMES_NOTICE_DELAY = 300
    service = PushService()
    yield service
    service.server.shutdown()


def _browser(client, endpoint):
    """A browser's subscription: its own key pair and auth secret, as PushSubscription.toJSON()."""
    key, auth = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    body = {"endpoint": endpoint, "keys": {"p256dh": b64(public_point(key)), "auth": b64(auth)}}
    response = client.post("/push/subscribe", json.dumps(body), content_type="application/json")
    assert response.status_code == 201, response.content
    return key, auth


def _corr_match(white, black):
    with clock.freeze(START):
        match = services.match_create(creator=white, length=3, corr_days=2)
        with services.use_dice(ScriptedDice([(3,), (1,)])):
            services.match_join(player=black, match_id=match.pk)
    return match.games.get()


def test_your_turn_is_pushed_encrypted_and_signed(alice, bob, push_service, django_capture_on_commit_callbacks):
    client = Client()
    client.force_login(alice.user)
    key, auth = _browser(client, f"{push_service.url}/push/alice-1")
    game = _corr_match(alice, bob)
    with clock.freeze(START + timedelta(minutes=6)), django_capture_on_commit_callbacks(execute=True):
        assert services.notices_send() == {"turn": 1, "low": 0}  # by push alone: no verified address
    ((path, headers, body),) = push_service.received
    assert path == "/push/alice-1" and headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")
    assert f"k={client.get('/settings/').context['push_key']}" in headers["authorization"]
    notice = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm"))
    assert notice == {"title": "Your turn in 1 match", "body": "Against bob", "url": f"/games/{game.pk}/"}


def test_a_gone_subscription_is_deleted_and_push_can_be_switched_off(
        alice, bob, push_service, django_capture_on_commit_callbacks):
    client = Client()
    client.force_login(alice.user)
    _browser(client, f"{push_service.url}/push/alice-2")
    services.player_update_settings(player=alice, changes={"push": False})
    _corr_match(alice, bob)
    with clock.freeze(START + timedelta(minutes=6)), django_capture_on_commit_callbacks(execute=True):
        services.notices_send()
    assert push_service.received == []
    services.player_update_settings(player=alice, changes={"push": True})
    push_service.status = 410
    _corr_match(alice, bob)
    with clock.freeze(START + timedelta(minutes=7)), django_capture_on_commit_callbacks(execute=True):
        assert services.notices_send()["turn"] == 1  # (push off did not start a quiet period)
    assert len(push_service.received) == 1 and not PushSubscription.objects.exists()


def test_bad_subscriptions_are_refused_and_the_worker_is_served(alice):
    client = Client()
    client.force_login(alice.user)
    for body in ('{"endpoint": "ftp://x"}', '{"endpoint": "https://push.example/1", "keys": {"p256dh": ""}}', "[1]",
                 "not json"):
        response = client.post("/push/subscribe", body, content_type="application/json")
        assert response.status_code == 400 and response.json()["error"]["code"]
    assert not PushSubscription.objects.exists()
    worker = Client().get("/sw.js")
    assert worker["Content-Type"] == "text/javascript" and b"showNotification" in worker.content
