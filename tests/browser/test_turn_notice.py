"""The your-turn notice in a real background tab (issue 28): the player's game is open in a tab
of a second Chromium, another tab is brought in front of it (the game's tab is really hidden:
nothing is forced), the opponent plays, and the hidden tab's title and icon say it is the
player's turn, as the browser's tab strip shows them; brought back to the front, both return."""

from urllib.parse import urlsplit

import pytest

from tests.browser.helpers import click_play, game_state
from tests.browser.raw_tab import RawChromium
from tests.browser.test_board_motion import OPENING
from tests.browser.test_site import start_match
from tests.support import require_chromium

pytestmark = [pytest.mark.browser, pytest.mark.slow]

READY = "!!(window.bg && bg.state.phase === 'move' && document.body.dataset.connected === '1')"


@pytest.fixture
def raw_chromium():
    chromium = RawChromium(require_chromium())
    yield chromium
    chromium.close()


def test_the_turn_notice_shows_in_a_tab_really_in_the_background(site_server, new_page, raw_chromium):
    white, black, _ = start_match(site_server, new_page, length=3, names=("rhea", "sol"))
    url = black.url
    # Black logged in in the second browser too (his cookies: the same player, another window)
    start = raw_chromium.tabs()[0]["id"]
    host = urlsplit(url)
    for cookie in black.context.cookies():
        raw_chromium.send(start, "Network.setCookie", {"name": cookie["name"], "value": cookie["value"],
                                                       "url": f"{host.scheme}://{host.netloc}/"})
    game = raw_chromium.open(url)
    raw_chromium.until(lambda: raw_chromium.evaluate(game, READY), what="the game page ready")
    assert raw_chromium.evaluate(game, "bg.state.you") == "black"
    title = raw_chromium.evaluate(game, "document.title")
    # another tab in front: the game's tab is hidden, for real
    other = raw_chromium.open("about:blank")
    raw_chromium.activate(other)
    raw_chromium.until(lambda: raw_chromium.evaluate(game, "document.visibilityState") == "hidden", what="the tab hidden")
    assert not raw_chromium.evaluate(game, "document.title").startswith("●"), "White is on roll: not Black's turn yet"
    version = game_state(white)["version"]
    click_play(white, OPENING)
    raw_chromium.until(lambda: raw_chromium.evaluate(game, f"bg.state.version > {version} && bg.state.actor === 'black'"),
                       what="White's play arrived")
    # the tab strip (the browser's own list of tabs) shows the notice: the title and the icon
    seen = raw_chromium.until(lambda: next((t for t in raw_chromium.tabs() if t["id"] == game and t["title"].startswith("● Your turn")), None),
                              what="the your-turn title in the tab strip")
    assert seen["title"] == f"● Your turn · {title}"
    assert "favicon-turn" in raw_chromium.evaluate(game, "document.getElementById('favicon').href")
    raw_chromium.until(lambda: "favicon-turn" in next(t for t in raw_chromium.tabs() if t["id"] == game).get("faviconUrl", ""),
                       what="the your-turn icon in the tab strip")
    # the game's board is the server's, though no animation frame came to the hidden tab
    assert raw_chromium.evaluate(game, "bg.state.board[5]") == 2
    assert raw_chromium.evaluate(game, "document.getElementById('board').dataset.animating") != "1"
    # back in front: the notice goes
    raw_chromium.activate(game)
    raw_chromium.until(lambda: raw_chromium.evaluate(game, "document.visibilityState") == "visible", what="the tab visible")
    raw_chromium.until(lambda: raw_chromium.evaluate(game, "document.title") == title, what="the title restored")
    assert "favicon-turn" not in raw_chromium.evaluate(game, "document.getElementById('favicon').href")
