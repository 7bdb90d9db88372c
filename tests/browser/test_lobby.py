"""The lobby in a real browser: a public match appears live and is joined with its button."""

import re

import pytest

from tests.browser.helpers import create_match, sign_up

pytestmark = pytest.mark.browser


def test_a_public_match_appears_in_the_lobby_and_its_join_button_starts_it(site_server, new_page):
    base, _ = site_server
    host, guest = new_page(), new_page()
    sign_up(host, base, "host")
    sign_up(guest, base, "guest")
    guest.goto(f"{base}/")
    match_id, _ = create_match(host, base, length=3, private=False)

    # The guest's lobby learns of the match over its socket, without a reload.
    row = guest.locator(f'#open-matches tr[data-match="{match_id}"]')
    row.wait_for()
    button = row.get_by_role("button", name=re.compile("Join"))
    assert button.is_visible()
    # A button a person can see: its background is painted (not transparent like a link).
    background = button.evaluate("b => getComputedStyle(b).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent"), background
    button.click()
    guest.wait_for_url(re.compile(r".*/games/\d+/$"))
    # The host's waiting page follows into the game too.
    host.wait_for_url(re.compile(r".*/games/\d+/$"), timeout=15_000)
    assert host.url == guest.url
