"""Abuse limits: login and sign-up throttles (per account and per address) and the bot API's
rate limit, on Django's cache, which is Redis, shared by every process, when REDIS_URL is set;
the Content-Security-Policy and the usual headers; ``check --deploy`` clean."""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client

from games import services
from games.models import Player
from tests.support import require_redis

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-password-9"


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _login(client, username, password, addr="10.0.0.1"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=addr)


@pytest.mark.django_db
def test_login_is_throttled_per_account(settings, no_tracebacks):
    settings.GAMES_LOGIN_LIMIT, settings.GAMES_LOGIN_IP_LIMIT = 3, 100
    services.player_register(username="alice", password=PASSWORD)
    for i in range(3):  # from different addresses: the account's own limit
        assert _login(Client(), "alice", "wrong", addr=f"10.0.0.{i}").status_code == 200
    blocked = _login(Client(), "ALICE", PASSWORD, addr="10.9.9.9")  # even the right password, any case
    assert blocked.status_code == 429
    assert b"Too many failed logins" in blocked.content and "_auth_user_id" not in blocked.client.session
    other = services.player_register(username="bob", password=PASSWORD)
    client = Client()
    assert _login(client, "bob", PASSWORD, addr="10.9.9.9").status_code == 302  # other accounts are not
    assert client.session["_auth_user_id"] == str(other.user_id)


@pytest.mark.django_db
def test_guests_are_limited_per_address(settings, no_tracebacks):
    settings.GAMES_GUEST_LIMIT = 3
    alice = services.player_register(username="alice", password=PASSWORD)
    invites = [services.match_create(creator=alice, length=3).invite_code for _ in range(6)]
    for code in invites[:3]:
        assert Client().post(f"/join/{code}/", {"guest": "1"}, REMOTE_ADDR="10.0.0.5").status_code == 302
    guests = Player.objects.filter(is_guest=True).count()
    refused = Client().post(f"/join/{invites[3]}/", {"guest": "1"}, REMOTE_ADDR="10.0.0.5")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert 'data-code="too_many_guests"' in refused.content.decode()
    assert "_auth_user_id" not in refused.client.session
    assert Player.objects.filter(is_guest=True).count() == guests == 3
    assert Client().post(f"/join/{invites[4]}/", {"guest": "1"}, REMOTE_ADDR="10.0.0.6").status_code == 302


@pytest.mark.django_db
def test_login_is_throttled_per_address(settings):
    settings.GAMES_LOGIN_LIMIT, settings.GAMES_LOGIN_IP_LIMIT = 100, 4
    services.player_register(username="alice", password=PASSWORD)
    for i in range(4):
        assert _login(Client(), f"guess{i}", "wrong", addr="10.0.0.7").status_code == 200
    assert _login(Client(), "alice", PASSWORD, addr="10.0.0.7").status_code == 429
    assert _login(Client(), "alice", PASSWORD, addr="10.0.0.8").status_code == 302


@pytest.mark.django_db
def test_sign_up_is_throttled_per_address(settings, no_tracebacks):
    settings.GAMES_SIGNUP_LIMIT = 2
    for i in range(2):
        response = Client().post("/accounts/signup/", {"username": f"new{i}", "password1": PASSWORD,
                                                       "password2": PASSWORD}, REMOTE_ADDR="10.1.1.1")
        assert response.status_code == 302
    response = Client().post("/accounts/signup/", {"username": "new9", "password1": PASSWORD,
                                                   "password2": PASSWORD}, REMOTE_ADDR="10.1.1.1")
    assert response.status_code == 429 and b"Too many sign-ups" in response.content
    assert Player.objects.count() == 2


@pytest.mark.django_db
def test_pages_carry_the_csp_and_the_usual_headers(client):
    services.player_register(username="alice", password=PASSWORD)
    client.force_login(Player.objects.get().user)
    for path in ("/", "/accounts/login/", "/leaderboard/", f"/players/{Player.objects.get().pk}/"):
        response = client.get(path)
        csp = response["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
        assert response["X-Frame-Options"] == "DENY" and response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        html = response.content.decode()
        # nothing the policy would block: no inline script (data blocks are not run), no style attributes
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, tag
        assert not re.search(r"\sstyle=|\son[a-z]+=", html), path


def test_check_deploy_is_clean_with_production_settings():
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
           "DJANGO_ALLOWED_HOSTS": "backgammon.example.com"}
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_api_rate_limit_holds_across_two_processes(tmp_path, redis_url):
    """Two real Daphne processes sharing Redis: the limit counts requests to both together."""
    require_redis()
    from urllib.request import Request, urlopen
    from urllib.error import HTTPError

    from tests.live import Site

    env = {"GAMES_API_RATE_LIMIT": "6", "GAMES_API_RATE_WINDOW": "60"}
    with Site(tmp_path, webs=2, redis_url=redis_url, env=env) as site:
        def call(i, path, body=None, key=None):
            request = Request(site.url(i) + path, data=json.dumps(body).encode() if body is not None else None,
                              headers={"Content-Type": "application/json",
                                       **({"Authorization": f"Bearer {key}"} if key else {})})
            try:
                with urlopen(request, timeout=20) as response:
                    return response.status, json.loads(response.read())
            except HTTPError as exc:
                return exc.code, json.loads(exc.read())

        status, data = call(0, "/api/agents", {"name": "flooder"})
        assert status == 201
        key = data["apiKey"]
        statuses = [call(i % 2, "/api/matches", key=key)[0] for i in range(8)]  # alternating processes
        assert statuses[:6] == [200] * 6 and statuses[6:] == [429, 429], statuses
        assert call(1, "/api/matches", key=key)[1]["error"]["code"] == "rate_limited"
        assert site.tracebacks() == []
