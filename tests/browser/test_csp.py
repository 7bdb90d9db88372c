"""The pages work under the Content-Security-Policy: a real Chromium reports no CSP violation
from the lobby through sign-up, a match's waiting room, the game (board, socket) and the
admin's login, and the game page does run its script (the board is drawn)."""

import re

import pytest

from tests.browser.helpers import create_match, join_by_invite, sign_up

pytestmark = pytest.mark.browser


def _watch(page, seen):
    page.on("console", lambda msg: seen.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.on("pageerror", lambda exc: seen.append(f"pageerror: {exc}"))


def test_no_page_needs_anything_the_policy_blocks(site_server, new_page):
    base, _ = site_server
    host, guest = new_page(), new_page()
    seen = []
    _watch(host, seen)
    _watch(guest, seen)
    response = host.goto(f"{base}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    sign_up(host, base, "csphost")
    sign_up(guest, base, "cspguest")
    _, invite = create_match(host, base, length=3)
    join_by_invite(guest, invite)
    guest.locator("#board g, #board rect, #board path").first.wait_for()  # the module script drew the board
    host.wait_for_url(re.compile(r".*/games/\d+/$"), timeout=15_000)
    for path in ("/leaderboard/", "/admin/login/", "/api/guide"):
        guest.goto(base + path)
    assert seen == []
