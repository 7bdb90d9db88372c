"""Correspondence in the browser: two players open three correspondence matches each through
the form, join each other's by invite, see "your turn" in the header, play from the
drop-down and go on with "Next match" while one waits (clicks, not API calls; conftest.py has
the server)."""

import re

import pytest

from tests.browser.conftest import PHONE
from tests.browser.helpers import click_play, game_state, script_dice, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OPENING = [[4], [1], [6, 5], [6, 5], [6, 5], [6, 5]]  # White (the creator) moves first, 4-1


def _open_correspondence(page, base):
    page.goto(f"{base}/")
    page.fill("input[name=length]", "3")
    page.select_option("select[name=corr_days]", "2")
    page.fill("input[name=corr_bank_days]", "3")
    page.set_checked("input[name=private]", True)
    page.click("#new-match button[type=submit]")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    assert "Correspondence: 2 days per move + 3 days bank" in page.text_content("#time-control")
    return int(re.search(r"/matches/(\d+)/", page.url).group(1)), page.input_value("#invite-link")


def _count(page):
    """The header's count: none shown ("Your matches") when no match waits."""
    shown = page.is_visible("#your-turn-count")
    return int(page.text_content("#your-turn-count")) if shown else 0


def test_two_players_keep_three_correspondence_matches_each(site_server, new_page, screenshots):
    base, dice = site_server
    alice, bob = new_page(), new_page()
    sign_up(alice, base, "corralice")
    sign_up(bob, base, "corrbob")
    for creator, joiner in ((alice, bob), (bob, alice)):
        for _ in range(3):
            match_id, invite = _open_correspondence(creator, base)
            script_dice(dice, match_id, OPENING)
            joiner.goto(invite)
            assert "Correspondence: 2 days per move" in joiner.text_content("#time-control")
            joiner.click("#join-button")
            joiner.wait_for_url(re.compile(r".*/games/\d+/$"))
            # The creator's waiting page opens the game by itself once someone joins: let it,
            # so that it does not cut short the creator's next navigation.
            creator.wait_for_url(re.compile(r".*/games/\d+/$"))
    # Each waits on the three matches they opened (White moves first in each).
    for page in (alice, bob):
        page.goto(f"{base}/matches/?turn=mine")
        assert _count(page) == 3
        assert page.locator("#match-rows tbody tr[data-match]").count() == 3
        page.goto(f"{base}/matches/?turn=theirs")
        assert page.locator("#match-rows tbody tr[data-match]").count() == 3

    # Alice opens the oldest from the header's drop-down, plays, and goes on with "Next match".
    alice.goto(f"{base}/leaderboard/")
    alice.click("#your-turn summary")
    alice.click("#your-turn .your-turn-list li:first-child a")
    alice.wait_for_url(re.compile(r".*/games/\d+/$"))
    for left in (2, 1, 0):
        alice.wait_for_function("() => window.bg && bg.state.phase === 'move' && bg.state.actor === bg.state.you")
        assert "days per move" in alice.text_content("#match-title")
        first = alice.url
        version = game_state(alice)["version"]
        click_play(alice, game_state(alice)["legal"][0])
        alice.wait_for_function(f"() => bg.state.version > {version} && bg.state.actor !== bg.state.you")
        assert _count(alice) == left, "the header's count follows the game just played"
        if not left:  # nothing waits any more: no "Next match"
            assert alice.is_hidden("#next-match")
            break
        alice.wait_for_selector("#next-match:not([hidden])")
        alice.click("#next-match")
        alice.wait_for_url(lambda url, first=first: url != first and "/games/" in url)
        assert _count(alice) == left
    bob.goto(f"{base}/matches/?turn=mine")
    assert _count(bob) == 6 and bob.locator("#match-rows tbody tr[data-match]").count() == 6
    # on a phone the list fits the screen (it was an unstyled table 30-100 px wider than the page)
    for width in (PHONE["width"], 360):
        bob.set_viewport_size({**PHONE, "width": width})
        assert bob.evaluate("document.documentElement.scrollWidth") <= width
        bob.screenshot(path=str(screenshots / f"matches-your-turn-{width}.png"), full_page=True)
