"""Clubs in Chromium: an owner opens a club and copies its invite link; a newcomer follows
the link, signs up, joins, and challenges the owner from the ladder (the challenge's match
opens); the club and members' pages fit a phone (390x844) and a desktop (1366x850).
Screenshots: artifacts/screenshots/club-*."""

import re

import pytest

from tests.browser.conftest import PHONE
from tests.browser.helpers import fill_sign_up, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDE = {"width": 1366, "height": 850}


def fits(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_joining_by_the_invite_link_and_challenging_on_the_ladder(site_server, new_page, screenshots):
    base, _ = site_server
    owner = new_page(WIDE)
    sign_up(owner, base, prefix="owner")
    owner.goto(f"{base}/")
    owner.click("#nav-clubs")
    owner.wait_for_url("**/clubs/")
    owner.fill("#new-club input[name=name]", "Browser club")
    owner.fill("#new-club textarea[name=description]", "Tuesdays at eight.")
    owner.click("#new-club button[type=submit]")
    owner.wait_for_selector("#invite-link")
    invite = owner.input_value("#invite-link")
    assert "/clubs/join/" in invite and fits(owner)
    owner.screenshot(path=str(screenshots / "club-owner-desktop.png"), full_page=True)

    member = new_page(PHONE)
    member.goto(invite)
    assert member.locator("#join-club").count() == 0  # not signed in: log in or sign up first
    member.click("main >> text=sign up")
    fill_sign_up(member, "newcomer")
    member.wait_for_url(invite)
    member.screenshot(path=str(screenshots / "club-invite-phone.png"), full_page=True)
    member.click("#join-club")
    member.wait_for_selector("#ladder")
    rows = member.locator("#ladder tbody tr")
    assert rows.count() == 2 and "newcomer" in rows.nth(1).inner_text()
    assert member.locator("#ladder .challenge").count() == 1 and fits(member)
    member.screenshot(path=str(screenshots / "club-ladder-phone.png"), full_page=True)

    member.click("#ladder .challenge")
    member.wait_for_url(re.compile(r"/games/\d+/"))  # the challenge's match, started: its board
    member.goto(f"{base}/clubs/")
    member.click("text=Browser club")
    member.wait_for_selector("#your-challenge")
    assert member.locator("#ladder .challenge").count() == 0  # one open challenge at a time
    assert "challenges" in member.locator("#challenges").inner_text()
    member.screenshot(path=str(screenshots / "club-challenge-phone.png"), full_page=True)

    owner.reload()
    assert owner.locator("#your-challenge").count() == 1
    owner.click("#members-link")
    owner.wait_for_selector("#members")
    assert owner.locator("#members tbody tr").count() == 2 and fits(owner)
    owner.screenshot(path=str(screenshots / "club-members-desktop.png"), full_page=True)
    owner.set_viewport_size(PHONE)
    owner.screenshot(path=str(screenshots / "club-members-phone.png"), full_page=True)
    assert fits(owner)
    member.set_viewport_size(WIDE)
    member.screenshot(path=str(screenshots / "club-challenge-desktop.png"), full_page=True)
