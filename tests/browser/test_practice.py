"""Practice from one's own errors in Chromium, end to end: a member whose uploaded .mat was
analysed (two games of the recorded house-bot match, 0-ply) starts a session from
/practice/, answers every exercise by choosing among the candidate plays or cube actions,
sees the verdict, the choices with their equities and the score, and finds the session in
the history. Desktop and phone, with screenshots."""

import re

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.live import Site

pytestmark = [pytest.mark.browser]

MAKE = """
import json
from games import services
from games.analysis.game import analyse_match
from games.models import Analysis
fixture = json.load(open("tests/fixtures/analysis_match.json"))
owner = services.player_register(username="casual", password=None)
result = analyse_match(fixture["games"][:2], ply=0)
a = Analysis.objects.create(source=Analysis.UPLOAD, owner=owner, depth=0, length=fixture["length"],
                            white_name="casual", black_name="intermediate", result=result)
print("RESULT " + json.dumps({"id": a.pk}))
"""


def _session(page, site, size, screenshots, name):
    page.goto(f"{site.url()}/practice/")
    page.select_option("#size", str(size))
    page.locator("#practice-start button[type=submit]").click()
    page.wait_for_selector('#practice[data-status="asking"]', state="attached")
    session_url = page.url
    assert re.search(r"/practice/\d+/$", session_url)
    assert page.locator("#board .checker, #board circle").count() > 0
    page.screenshot(path=str(screenshots / f"practice-question-{name}.png"), full_page=True)
    size = int(page.locator("#progress-line").inner_text().split(" of ")[1])  # fewer when fewer errors
    kinds = []
    for n in range(1, size + 1):
        assert page.locator("#practice").get_attribute("data-exercise") == str(n)
        kind = page.locator("#practice").get_attribute("data-kind")
        kinds.append(kind)
        if kind == "answer" and kinds.count("answer") == 1:
            assert [b.inner_text() for b in page.locator("#choices button.choice").all()] == ["Take", "Pass"]
            assert page.locator("#what").inner_text().startswith("White is doubled: take or pass?")
            page.screenshot(path=str(screenshots / f"practice-take-{name}.png"), full_page=True)
        assert page.locator("#progress-line").inner_text() == f"Exercise {n} of {size}"
        choices = page.locator("#choices button.choice")
        assert choices.count() >= 2
        choices.last.click()
        page.wait_for_selector('#practice[data-status="answered"]', state="attached")
        verdict = page.locator("#verdict").inner_text()
        assert verdict.startswith(("Right:", "Not the best:")) and "In the match:" in verdict
        rows = page.locator("#choices .alt")
        assert rows.count() >= 2 and "(best" in rows.first.inner_text()
        assert "your answer" in page.locator("#choices").inner_text()
        if kind == "answer" and kinds.count("answer") == 1:
            equities = page.locator("#choices .alt-eq").all_inner_texts()
            assert len(equities) == 2 and all(re.match(r"[+-]\d\.\d{3}$", e.replace("−", "-")) for e in equities)
            page.screenshot(path=str(screenshots / f"practice-take-answered-{name}.png"), full_page=True)
        if n == 1:
            page.screenshot(path=str(screenshots / f"practice-answer-{name}.png"), full_page=True)
            if page.locator("#choices .alt:not([disabled])").count():  # a play: shown on the board
                before = page.locator("#board").inner_html()
                page.locator("#choices .alt").first.click()
                assert page.locator("#board").inner_html() != before
        if n < size:
            page.locator("#next").click()
    assert page.locator("#next").is_hidden()
    summary = page.locator("#final-score").inner_text()
    data = page.evaluate(f"fetch('{session_url[:-1]}.json').then(r => r.json())")
    assert data["finished"] and data["answered"] == size
    assert summary.startswith(f"Best answer in {data['correct']} of {size} exercises")
    page.screenshot(path=str(screenshots / f"practice-end-{name}.png"), full_page=True)
    return kinds


def test_a_practice_session_end_to_end(browser, tmp_path, screenshots):
    with Site(tmp_path / "site", webs=1, workers=0) as site:
        made = site.shell(MAKE)
        cookie = site.sessions(["casual"])["casual"]
        # the phone asks for more than there are: every error of the player, the take among them
        for viewport, name, size in ((DESKTOP, "desktop", 5), (PHONE, "phone", 20)):
            context = browser.new_context(viewport=viewport)
            context.set_default_timeout(15_000)
            context.add_cookies([{"name": "sessionid", "value": cookie, "url": site.url()}])
            page = context.new_page()
            try:
                # reached from the analysis page (desktop) and from the site's navigation (phone)
                page.goto(f"{site.url()}/analysis/{made['id']}/")
                page.locator("#practice-link" if name == "desktop" else "#nav-practice").click()
                page.wait_for_url(re.compile(r"/practice/$"))
                kinds = _session(page, site, size, screenshots, name)
                if name == "phone":
                    assert len(kinds) == 14 and kinds.count("answer") == 1 and kinds.count("play") == 13
                assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
                page.goto(f"{site.url()}/practice/")
                history = page.locator("#practice-history tbody tr")
                assert history.count() >= 1
                assert re.search(rf"\d+ / {len(kinds)} \(\d+%\)", history.first.inner_text())
                page.screenshot(path=str(screenshots / f"practice-history-{name}.png"), full_page=True)
            finally:
                context.close()
        assert not site.tracebacks(), site.logs()


GUEST = """
import json
from games import services
from games.analysis.game import analyse_match
from games.models import Analysis, Match
fixture = json.load(open("tests/fixtures/analysis_match.json"))
guest = services.guest_create()
host = services.player_register(username="host", password=None)
match = Match.objects.create(white=host, black=guest, length=fixture["length"], status=Match.FINISHED)
result = analyse_match(fixture["games"][:2], ply=0)
Analysis.objects.create(match=match, depth=0, length=match.length, white_name="host",
                        black_name=guest.display_name, result=result)
print("RESULT " + json.dumps({"username": guest.user.username}))
"""


def test_a_guest_practises_on_a_match_played_here(browser, tmp_path, screenshots):
    """A guest (no account) who played Black in an analysed match practises its errors."""
    with Site(tmp_path / "site", webs=1, workers=0) as site:
        made = site.shell(GUEST)
        cookie = site.sessions([made["username"]])[made["username"]]
        context = browser.new_context(viewport=DESKTOP)
        context.set_default_timeout(15_000)
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": site.url()}])
        page = context.new_page()
        try:
            page.goto(f"{site.url()}/")
            assert page.locator("#guest-signup").count() == 1  # a guest indeed
            page.locator("#nav-practice").click()
            page.wait_for_url(re.compile(r"/practice/$"))
            kinds = _session(page, site, 5, screenshots, "guest")
            assert len(kinds) == 5
            assert page.locator("#what").inner_text().startswith("Black to play")
        finally:
            context.close()
        assert not site.tracebacks(), site.logs()
