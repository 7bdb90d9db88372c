"""The lobby in Arabic, Turkish and Greek in a real browser, on a phone and a desktop: the page's
direction, its text in the language, and no text drawn over other text or out of the page.
Screenshots go to artifacts/screenshots/ for review."""

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.helpers import create_match, sign_up
from tests.browser.layout import OVERLAPS, WIDER

pytestmark = pytest.mark.browser

@pytest.mark.parametrize("code, direction, heading", [("ar", "rtl", "مبارياتك"), ("tr", "ltr", "Oyunların"),
                                                      ("el", "ltr", "Οι παρτίδες σου")])
def test_the_lobby_reads_in_the_players_language_on_a_phone_and_a_desktop(site_server, new_page, screenshots,
                                                                          code, direction, heading):
    base, _ = site_server
    page = new_page()
    page.context.set_extra_http_headers({"Accept-Language": code})
    sign_up(page, base, f"lobby{code}")
    create_match(page, base, length=3, private=False)  # "Your games" and an open match to show
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.goto(f"{base}/")
        page.locator("#open-matches tr[data-match]").first.wait_for()
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [code, direction]
        assert page.locator("#mine-h").inner_text() == heading
        assert page.evaluate(WIDER) == [], name
        assert page.evaluate(OVERLAPS) == [], name
        page.screenshot(path=str(screenshots / f"lobby-{code}-{name}.png"), full_page=True)
