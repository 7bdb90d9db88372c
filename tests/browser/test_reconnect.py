"""The game page's socket (static/js/lib/socket.mjs) in a real Chromium, through Playwright's
websocket routing: killed, it shows that it reconnects, comes back with the version it held
(``?v=``) after a growing back-off, and catches up on the move it missed; gone silent, it is
found dead after its unanswered ping and replaced by one new socket."""

import re
import time

import pytest

from tests.browser.helpers import click_play, create_match, game_state, join_by_invite, script_dice, sign_up

pytestmark = pytest.mark.browser

GAME_SOCKET = re.compile(r".*/ws/games/\d+/.*")
OPENING = [{"from": 8, "to": 5}, {"from": 6, "to": 5}]  # White's 3-1


class Wire:
    """A page's game sockets, each passed on to the server unless ``refuse`` is set (then the
    page sees it open and close at once). ``kill()`` closes the page's open socket; ``mute()``
    stops passing the server's frames to it (the page's own still go through)."""

    def __init__(self, page):
        self.urls, self.times, self.routes, self.muted, self.refuse = [], [], [], None, False
        page.route_web_socket(GAME_SOCKET, self._route)

    def _route(self, ws):
        self.urls.append(ws.url)
        self.times.append(time.monotonic())
        if self.refuse:
            ws.close()
            return
        server = ws.connect_to_server()
        server.on_message(lambda message: None if ws is self.muted else ws.send(message))
        self.routes.append(ws)

    def kill(self):
        self.routes[-1].close()

    def mute(self):
        self.muted = self.routes[-1]


def _table(base, dice, new_page, prefix):
    """White and Black at a 1-point match, White on roll with 3-1, Black's sockets on a Wire."""
    white, black = new_page(), new_page()
    sign_up(white, base, f"{prefix}w")
    sign_up(black, base, f"{prefix}b")
    wire = Wire(black)
    match_id, invite = create_match(white, base, length=1)
    script_dice(dice, match_id, [[3], [1]])
    join_by_invite(black, invite)
    for page in (white, black):
        page.wait_for_function("() => window.bg && bg.state.phase === 'move' && bg.state.actor === 'white'"
                               " && document.body.dataset.connected === '1'")
    return white, black, wire


def _caught_up(white, black, held, timeout):
    """Black's page holds White's version and board again, having missed White's move."""
    seen = game_state(white)["version"]
    assert seen > held
    black.wait_for_function("v => bg.state.version >= v", arg=seen, timeout=timeout)
    assert game_state(black)["board"] == game_state(white)["board"]
    assert game_state(black)["board"][5] == 2  # White's 8/5 6/5


def test_a_killed_game_socket_comes_back_with_its_version_and_catches_up(site_server, new_page):
    base, dice = site_server
    white, black, wire = _table(base, dice, new_page, "kill")
    held = game_state(black)["version"]
    opened = len(wire.urls)
    wire.refuse = True
    killed_at = time.monotonic()
    wire.kill()
    black.wait_for_selector("#banner:visible")
    assert black.text_content("#banner") == "Reconnecting…"
    click_play(white, OPENING)  # while Black is away
    white.wait_for_function("v => bg.state.version > v", arg=held)
    deadline = killed_at + 20
    while len(wire.urls) < opened + 3 and time.monotonic() < deadline:
        black.wait_for_timeout(50)  # a bounded poll: Playwright routes the page's sockets meanwhile
    assert game_state(black)["version"] == held, "Black missed the move"
    # The back-off doubles from 400 ms and each wait is at least half of it: the third retry
    # comes 200 + 400 + 800 ms after the kill at the earliest (a fixed short delay would storm).
    assert wire.times[opened + 2] - killed_at >= 1.4, [t - killed_at for t in wire.times[opened:]]
    wire.refuse = False
    _caught_up(white, black, held, timeout=15_000)
    black.wait_for_selector("#banner", state="hidden")
    assert black.evaluate("() => document.body.dataset.connected") == "1"
    assert all(url.endswith(f"?v={held}") for url in wire.urls[opened:]), wire.urls


def test_a_game_socket_gone_silent_is_found_dead_and_replaced(site_server, new_page):
    base, dice = site_server
    white, black, wire = _table(base, dice, new_page, "mute")
    held = game_state(black)["version"]
    opened = len(wire.urls)
    wire.mute()  # the server's frames stop reaching Black's page; its socket stays open
    click_play(white, OPENING)
    white.wait_for_function("v => bg.state.version > v", arg=held)
    # Its idle ping goes unanswered: after 9 s of silence the socket is dropped, a new one opened.
    _caught_up(white, black, held, timeout=25_000)
    assert wire.urls[opened:] == [wire.urls[opened]], "one new socket, no more"
    assert wire.urls[opened].endswith(f"?v={held}")
