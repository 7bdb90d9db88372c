"""Issue 28's small fixes in Chromium: dark colours readable, the phone's dice clear of the
point numbers, the skip link, the finished game's dice check, and screenshots of each."""

import re

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.helpers import click_play, game_state, join_by_invite, script_dice, sign_up
from tests.browser.test_aids import WORST_PLAY
from tests.browser.test_site import CONTRAST_JS, shoot, start_match

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Text on the game page that sat on a cream panel in the dark theme, and its neighbours.
READABLE = (".tutor-warning p", ".aids-badge", "#seat-bottom [data-name]", "#seat-bottom [data-pips]",
            "#seat-top [data-name]", "#status-line", "#aids .hint", "#moves li")


def _set_setting(page, **changes):
    status = page.evaluate("""changes => fetch('/settings.json', {method: 'POST', body: JSON.stringify(changes),
        headers: {'Content-Type': 'application/json', 'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1]}})
        .then(r => r.status)""", changes)
    assert status == 200, status


def test_text_on_the_game_page_is_readable_in_both_themes(site_server, new_page, screenshots):
    base, dice = site_server
    alice, bob = new_page(), new_page()
    sign_up(alice, base, "dora")
    sign_up(bob, base, "eli")
    _set_setting(alice, theme="dark")
    alice.goto(f"{base}/")
    alice.fill("#new-match input[name=length]", "3")
    alice.select_option("#new-match select[name=rated]", "0")
    alice.check("#new-match input[name=aids]")
    alice.click("#new-match button[type=submit]")
    alice.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match_id = int(re.search(r"/matches/(\d+)/", alice.url).group(1))
    script_dice(dice, match_id, [[3], [1], [6, 5], [4, 2]])  # White (alice) opens with 3-1
    join_by_invite(bob, alice.input_value("#invite-link"))
    alice.wait_for_url("**/games/*/")
    alice.wait_for_function("() => window.bg && bg.state.phase === 'move' && bg.state.actor === 'white'")
    assert alice.get_attribute("html", "data-theme") == "dark"
    # the tutor warns about the worst play: its text is on screen
    worst = alice.evaluate(WORST_PLAY)
    alice.select_option("#tutor-threshold", "doubtful")
    click_play(alice, worst["moves"])
    alice.wait_for_selector(".tutor-warning")
    assert "on-roll" in alice.get_attribute("#seat-bottom", "class")  # the own seat, highlighted
    for theme in ("dark", "light"):
        alice.evaluate("t => { document.documentElement.dataset.theme = t; }", theme)
        for selector in READABLE:
            ratio = alice.evaluate(CONTRAST_JS, selector)
            assert ratio >= 4.5, (theme, selector, round(ratio, 2))
        shoot(alice, screenshots, f"tutor-{theme}")
    # the board's three looks (the "board" setting): each its own colours, chosen on <html>
    assert alice.get_attribute("html", "data-board") == "classic"
    looks = set()
    for board in ("classic", "green", "contrast"):
        alice.evaluate("b => { document.documentElement.dataset.board = b; }", board)
        looks.add(alice.eval_on_selector("#board .point.dark", "p => getComputedStyle(p).fill") +
                  alice.eval_on_selector("#board .felt", "f => getComputedStyle(f).fill"))
        alice.screenshot(path=str(screenshots / f"board-look-{board}.png"))
    assert len(looks) == 3, looks


def _overlap(a, b):
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_phone_dice_skip_link_and_a_finished_games_dice_check(site_server, new_page, screenshots):
    base, _ = site_server
    white, black, match_id = start_match(site_server, new_page, length=1, names=("fay", "gil"))
    # on a phone the dice stand clear of the point numbers (and of the checkers)
    for size in (PHONE, DESKTOP):
        white.set_viewport_size(size)
        white.wait_for_function(f"() => document.querySelectorAll('#board text.label{'.big' if size is PHONE else ':not(.big)'}').length === 24")
        dice = [white.locator("#board .die").nth(i).bounding_box() for i in range(2)]
        covered = [white.locator("#board text.label, #board .checker").nth(i).bounding_box()
                   for i in range(white.locator("#board text.label, #board .checker").count())]
        assert not any(_overlap(d, c) for d in dice for c in covered), size
    white.set_viewport_size(PHONE)
    white.screenshot(path=str(screenshots / "dice-phone.png"))
    white.set_viewport_size(DESKTOP)
    # the skip link is the first thing Tab reaches, and it puts the focus on the board
    white.focus("body")
    white.evaluate("() => document.activeElement.blur()")
    white.keyboard.press("Tab")
    assert white.evaluate("() => document.activeElement.id") == "skip-board"
    assert white.is_visible("#skip-board")
    white.screenshot(path=str(screenshots / "skip-link-desktop.png"))
    white.keyboard.press("Enter")
    assert white.evaluate("() => document.activeElement.id") == "board"
    # the match ends (White resigns, Black accepts); the game's own page links to its dice check
    game = game_state(white)["game"]
    white.on("dialog", lambda dialog: dialog.accept())
    white.click("#resign-box summary")
    white.click('[data-resign="1"]')
    black.wait_for_selector('[data-act="resign_accept"]:visible')
    black.click('[data-act="resign_accept"]')
    white.wait_for_function("() => bg.state.status === 'finished'")
    later = new_page()
    later.goto(f"{base}/games/{game}/")
    later.wait_for_function("() => window.bg && bg.state.status === 'finished'")
    assert later.is_visible("#over-verify")
    assert later.get_attribute("#over-verify", "href") == f"/games/{game}/verify/"
    if later.is_visible("#end-dialog"):
        later.click("#end-close")
    later.click("#over-verify")
    later.wait_for_selector("#verdict")
