"""A game page and the analysis page in Arabic, Turkish and Greek in a real browser, on a phone
and a desktop (as the lobby is, tests/browser/test_lobby_languages.py): the page's direction,
no text left in English (the same page read in English shows which texts did not change), no
text drawn over other text, nothing reaching out of the page sideways, and move notation left
to right. Screenshots go to artifacts/screenshots/ for review."""

import re

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.helpers import click_play, create_match, game_state, join_by_invite, sign_up, wait_version
from tests.browser.layout import OVERLAPS, TEXTS, WIDER, english_left
from tests.live import Site

pytestmark = pytest.mark.browser

LANGUAGES = [("ar", "rtl"), ("tr", "ltr"), ("el", "ltr")]
# Words that stay as they are in every language: the engine's and the units' names.
# "pip" is the word Turkish and Greek players use (docs/glossary/tr.md, el.md: "μέτρημα πουλιών (pips)").
KEEP = {"EMG", "MWC", "bgsage", "GNU", "Backgammon", "ply", "PR", "pip", "pips"}
# Notation drawn left to right inside a right-to-left page: every <bdi class="notation"> is ltr.
NOTATION_LTR = """() => [...document.querySelectorAll('.notation')].filter(e => e.offsetParent)
  .filter(e => getComputedStyle(e).direction !== 'ltr').map(e => e.textContent)"""

# In a right-to-left page a signed number keeps its sign in front ("−0.130", not "0.130−"): the
# texts with a sign before a digit that is not inside a left-to-right isolate (lib/i18n.mjs).
SIGNS_LEFT = """() => (""" + TEXTS + """)().filter(t => /(?<![\\p{L}\\p{N}\\u2066])[−+-]\\d/u.test(t))"""


def _play_turns(pages, turns):
    """Play ``turns`` turns (each side's first legal play), so the list of moves shows plays."""
    host = pages[0]
    for _turn in range(turns):
        host.wait_for_function("() => window.bg && bg.state.phase === 'move'")
        state = game_state(host)
        mover = next(p for p in pages if game_state(p)["you"] == state["actor"])
        wait_version(mover, state["version"])
        click_play(mover, game_state(mover)["legal"][0])
        wait_version(host, state["version"] + 1)


def _read(page, code, direction, name, screenshots, what):
    """Check the page as it is now (in ``code``); then read it in English for the texts left."""
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [code, direction]
    assert page.evaluate(WIDER) == [], name
    assert page.evaluate(OVERLAPS) == [], name
    assert page.evaluate(NOTATION_LTR) == [], name
    if direction == "rtl":
        assert page.evaluate(SIGNS_LEFT) == [], name
    page.screenshot(path=str(screenshots / f"{what}-{code}-{name}.png"), full_page=True)
    return page.evaluate(TEXTS)


def _english(page, ready):
    page.context.set_extra_http_headers({"Accept-Language": "en"})
    page.reload()
    ready()
    texts = page.evaluate(TEXTS)
    return texts


@pytest.mark.parametrize("code, direction", LANGUAGES)
def test_a_game_page_reads_in_the_players_language_on_a_phone_and_a_desktop(site_server, new_page, screenshots,
                                                                           code, direction):
    base, _ = site_server
    host, guest = new_page(), new_page()
    for page in (host, guest):
        page.context.set_extra_http_headers({"Accept-Language": code})
    names = [sign_up(host, base, f"game{code}"), sign_up(guest, base, f"seat{code}")]
    _, invite = create_match(host, base, length=3, cube=False)  # no cube: each turn rolls by itself
    join_by_invite(guest, invite)
    host.wait_for_url(re.compile(r".*/games/\d+/$"), timeout=15_000)
    _play_turns([host, guest], 3)

    def ready():
        host.wait_for_function("() => window.bg && bg.state.version > 0 && document.getElementById('match-title').textContent"
                               " && document.querySelectorAll('#moves bdi.notation').length >= 3")

    texts = []
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        host.set_viewport_size(viewport)
        host.reload()
        ready()
        texts += _read(host, code, direction, name, screenshots, "game")
    english = _english(host, ready)
    assert len(set(english) - set(texts)) >= 10  # the page did change language: the check below has words to see
    assert english_left(texts, english, KEEP | {w for n in names for w in re.findall("[A-Za-z]+", n)}) == []


MAKE = """
import json
from games import services
from games.analysis.game import analyse_match
from games.models import Analysis
fixture = json.load(open("tests/fixtures/analysis_match.json"))
owner = services.player_register(username="paula", password=None)
result = analyse_match(fixture["games"][:2], ply=0)
a = Analysis.objects.create(source=Analysis.UPLOAD, owner=owner, depth=0, length=fixture["length"],
                            white_name="casual", black_name="intermediate", result=result)
print("RESULT " + json.dumps({"id": a.pk}))
"""


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    """A site with one analysed upload of paula's: ``(site, analysis id, paula's session)``."""
    with Site(tmp_path_factory.mktemp("site"), webs=1, workers=0) as site:
        made = site.shell(MAKE)
        yield site, made["id"], site.sessions(["paula"])["paula"]
        assert not site.tracebacks(), site.logs()


@pytest.mark.parametrize("code, direction", LANGUAGES)
def test_the_analysis_page_reads_in_the_players_language_on_a_phone_and_a_desktop(analysed, browser, screenshots,
                                                                                 code, direction):
    site, analysis_id, cookie = analysed
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": site.url()}])
    context.set_extra_http_headers({"Accept-Language": code})
    page = context.new_page()

    def ready():
        page.wait_for_selector('#analysis[data-status="done"]', state="attached")
        page.wait_for_function("() => document.getElementById('analysis').dataset.step === '3'")

    try:
        texts = []
        for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(viewport)
            page.goto(f"{site.url()}/analysis/{analysis_id}/#decision-4")  # a decision with plays listed
            ready()
            texts += _read(page, code, direction, name, screenshots, "analysis")
        english = _english(page, ready)
        assert len(set(english) - set(texts)) >= 20  # the page did change language
        assert english_left(texts, english, KEEP | {"casual", "intermediate", "paula"}) == []
    finally:
        context.close()


def test_the_check_for_english_left_sees_a_text_that_did_not_change():
    english = ["Your turn", "3-point match", "Ann", "24/18 13/10", "PR 4.2"]
    assert english_left(["Sıra sende", "3-point match", "Ann", "24/18 13/10", "PR 4.2"], english, {"PR", "Ann"}) \
        == ["3-point match"]


def test_the_overlap_check_counts_what_is_seen(new_page):
    """OVERLAPS: a line scrolled out of its box (a move list scrolled to its end, its first lines
    above the box, where the list's heading is) overlaps nothing seen; drawn there, it is found."""
    page = new_page(DESKTOP)
    page.set_content("""<div style="font: 14px/20px sans-serif"><h3 style="margin:0;font-size:14px">Moves</h3>
      <ol id="list" style="margin:0;height:40px;overflow-y:auto">""" + "".join(f"<li>line {i}</li>" for i in range(6))
                     + "</ol></div>")
    page.evaluate("document.getElementById('list').scrollTop = 80")   # lines 0-3 above the box
    assert page.evaluate(OVERLAPS) == []
    page.evaluate("document.getElementById('list').style.overflowY = 'visible'")   # the lines drawn past it
    page.evaluate("document.getElementById('list').style.marginTop = '-60px'")   # over the heading
    hits = page.evaluate(OVERLAPS)
    assert hits and all(a == "Moves" and b.startswith("line ") for a, b in hits), hits
