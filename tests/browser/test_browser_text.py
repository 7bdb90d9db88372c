"""The browser's own strings in the page's language, through a live server and Chromium: the
lobby's rows and the game page's panels (and the board read aloud) follow Accept-Language, from
the JavaScript catalog (/jsi18n/) the page loads before its modules."""

import re

import pytest

from tests.browser.conftest import DESKTOP
from tests.browser.helpers import create_match, join_by_invite, sign_up

pytestmark = pytest.mark.browser


@pytest.fixture
def page_in(browser):
    """``page_in("tr-TR")``: a page in a fresh context whose browser asks for that language."""
    contexts = []

    def make(locale):
        context = browser.new_context(viewport=DESKTOP, locale=locale)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def test_the_lobbys_rows_are_written_in_turkish_for_a_turkish_browser(site_server, page_in):  # noqa: F811
    base, _ = site_server
    visitor, host = page_in("tr-TR"), page_in("en-GB")
    visitor.goto(f"{base}/")
    assert visitor.get_attribute("html", "lang") == "tr"
    # The socket's first list replaces the page's rows: the empty tables and the live dot speak Turkish.
    visitor.wait_for_function("() => document.getElementById('lobby-status').title === 'canlı'")
    empty = visitor.locator("#live-matches tr.empty, #open-matches tr.empty")
    for text in empty.all_inner_texts():
        assert text in ("Henüz açık maç yok.", "Şu anda kimse oynamıyor."), text
    sign_up(host, base, "tavla")
    match_id, _ = create_match(host, base, length=3, private=False)
    row = visitor.locator(f'#open-matches tr[data-match="{match_id}"]')
    row.wait_for()
    assert "3 sayılık maç" in row.inner_text()
    assert row.get_by_role("link", name="Katılmak için giriş yap").is_visible()
    # The same row in English for an English browser: the words come from the catalog.
    host.goto(f"{base}/")
    english = host.locator(f'#open-matches tr[data-match="{match_id}"]')
    english.wait_for()
    assert "3-point match" in english.inner_text() and "Your table" in english.inner_text()
    # a 1-point match in the singular, as the page's own rows say it ("Match auf 1 Punkte" once)
    german = page_in("de-DE")
    german.goto(f"{base}/")
    one, _ = create_match(host, base, length=1, private=False)
    single = german.locator(f'#open-matches tr[data-match="{one}"]')
    single.wait_for()
    assert "Match auf 1 Punkt" in single.inner_text() and "1 Punkte" not in single.inner_text()


def test_the_game_pages_panels_and_the_board_read_aloud_follow_each_players_language(site_server, page_in):  # noqa: F811
    base, _ = site_server
    ayse, ann = page_in("tr-TR"), page_in("en-GB")
    sign_up(ayse, base, "ayse")
    sign_up(ann, base, "ann")
    _, invite = create_match(ayse, base, length=3)
    join_by_invite(ann, invite)
    ayse.wait_for_url(re.compile(r".*/games/\d+/$"), timeout=15_000)
    for page, title in ((ayse, "3 sayılık maç · 1. oyun"), (ann, "3-point match · game 1")):
        page.wait_for_function("t => document.getElementById('match-title').textContent === t", arg=title)
    assert ayse.inner_text("#seat-bottom [data-pips]") == "167 pip"
    assert ann.inner_text("#seat-bottom [data-pips]") == "167 pips"
    # The sentence a screen reader reads for the board.
    ayse.wait_for_function("() => document.getElementById('board-desc').textContent.includes('Beyaz pullar:')")
    said = ayse.text_content("#board-desc")
    assert "Pip: Beyaz 167, Siyah 167." in said and "White" not in said, said
    assert "Pips: White 167, Black 167." in ann.text_content("#board-desc")
