"""Tournaments in Chromium: the list and a tournament's page on a desktop and a phone
(390x844, nothing wider than the screen), entering from the page, a finished bracket.
Screenshots: artifacts/screenshots/tournament-*."""

import os
import subprocess
import sys

import pytest

from tests.browser.conftest import DESKTOP, PHONE, ROOT
from tests.browser.helpers import sign_up
from tests.browser.layout import WORDS_BROKEN

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RUN_TO_END = """
from games import tasks
from games.models import Game
while True:
    games = list(Game.objects.filter(status=Game.PLAYING, match__tournament_link__tournament_id={pk})
                 .values_list("pk", "version"))
    if not any([tasks.bot_turn.call_local(g, v) for g, v in games]):
        break
"""


def manage(site_server, *args) -> str:
    """``manage.py`` on the live server's database."""
    _, script = site_server
    env = {**os.environ, "SQLITE_PATH": str(script.parent / "db.sqlite3"), "DJANGO_DEBUG": "1",
           "PYTHONPATH": str(ROOT), "GAMES_TASKS_IMMEDIATE": "0",
           # matches finished here are not analysed unless a test asks: the PR table's test
           # runs every queued analysis, and the other tests' random-bot matches at 2-ply took
           # it from 6 s alone to 305 s in a CI run
           "GAMES_ANALYSIS_AUTO": os.environ.get("GAMES_ANALYSIS_AUTO", "0")}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True,
                          text=True)
    return done.stdout.strip()


def fits_the_phone(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_tournament_pages_on_a_desktop_and_a_phone(site_server, new_page, screenshots):
    base, _ = site_server
    finished = manage(site_server, "tournament", "create", "--name", "Bots night", "--format", "knockout",
                      "--length", "1", "--bots", "random:8", "--start", "now")
    manage(site_server, "shell", "-c", RUN_TO_END.format(pk=finished))
    upcoming = manage(site_server, "tournament", "create", "--name", "Tuesday Swiss", "--format", "swiss",
                      "--length", "3", "--rounds", "4", "--start", "2030-01-07T20:00:00+00:00")

    page = new_page(PHONE)
    sign_up(page, base)
    page.goto(f"{base}/")
    page.click("nav >> text=Tournaments")
    page.wait_for_url("**/tournaments/")
    assert page.locator("#finished").get_by_text("Bots night").is_visible()
    assert fits_the_phone(page)
    page.screenshot(path=str(screenshots / "tournament-list-phone.png"), full_page=True)

    page.click("text=Tuesday Swiss")
    page.click("#enter")
    page.wait_for_selector("#withdraw")
    assert page.locator("#entrants li").count() == 1 and fits_the_phone(page)
    page.screenshot(path=str(screenshots / "tournament-upcoming-phone.png"), full_page=True)

    page.goto(f"{base}/tournaments/{finished}/")
    assert page.locator("#bracket .b-match").count() == 7
    assert page.locator(".b-player.won").count() == 7
    assert page.locator("#tables li").count() == 7
    assert page.locator("#tables a.t-mat").count() == 7  # each finished match's .mat
    assert fits_the_phone(page)
    assert page.evaluate(WORDS_BROKEN, "#standings th, #pr-table th") == []  # no "WIN / S" on a phone
    page.screenshot(path=str(screenshots / "tournament-bracket-phone.png"), full_page=True)
    # in Turkish on a narrow phone the long heads ("Mağlubiyet") once squeezed the names to
    # "Rando|m (house bot)", and the leaderboard's ratings to "1559,|2"
    page.context.add_cookies([{"name": "django_language", "value": "tr", "url": base}])
    page.set_viewport_size({**PHONE, "width": 360})
    for path, cells in ((f"/tournaments/{finished}/", "#standings :is(th, td)"), ("/leaderboard/", "#leaderboard td")):
        page.goto(base + path)
        assert page.get_attribute("html", "lang") == "tr"
        assert page.evaluate(WORDS_BROKEN, cells) == [] and fits_the_phone(page), path
    page.screenshot(path=str(screenshots / "tournament-leaderboard-phone-tr.png"), full_page=True)
    page.goto(f"{base}/tournaments/{finished}/")
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(screenshots / "tournament-bracket-desktop.png"), full_page=True)
    assert upcoming


def test_the_tournament_page_follows_entries_and_the_draw_live(site_server, new_page, screenshots):
    from tests.browser.test_site import make_admin

    base, _ = site_server
    pk = manage(site_server, "tournament", "create", "--name", "Live draw", "--format", "knockout", "--length", "3",
                "--bots", "random:3")
    watcher = new_page(PHONE)
    watcher.goto(f"{base}/tournaments/{pk}/")
    assert watcher.locator("#entrants li").count() == 3 and watcher.locator("#bracket").count() == 0

    admin = make_admin(site_server, name="director")
    director = new_page()
    director.goto(f"{base}/accounts/login/?next=/tournaments/{pk}/")
    director.fill("input[name=username]", admin[0])
    director.fill("input[name=password]", admin[1])
    director.click("main button[type=submit], main input[type=submit]")
    director.wait_for_url(f"**/tournaments/{pk}/")
    # The director is typing a reason when a player enters: the page waits for him to be done
    # before it swaps in the new version, and keeps what he typed and where he was.
    director.fill("#player-action input[name=reason]", "no show")
    version = director.evaluate("() => Number(document.getElementById('tournament').dataset.version)")

    player = new_page()
    sign_up(player, base, prefix="entrant")
    player.goto(f"{base}/tournaments/{pk}/")
    player.click("#enter")
    watcher.wait_for_function("() => document.querySelectorAll('#entrants li').length === 4")
    director.wait_for_selector("#tournament[data-waiting]", state="attached")  # fetched, not swapped in
    assert director.locator("#entrants li").count() == 3
    assert director.is_visible("#t-held")  # the director is told the page waits for him
    director.screenshot(path=str(screenshots / "tournament-held-desktop.png"))
    assert director.evaluate("() => Number(document.getElementById('tournament').dataset.version)") == version
    director.keyboard.press("Tab")  # on to the next control: the field is left
    director.wait_for_function("() => document.querySelectorAll('#entrants li').length === 4")
    assert director.input_value("#player-action input[name=reason]") == "no show"
    assert director.evaluate("() => document.activeElement.id") == "remove"
    assert director.is_hidden("#t-held")
    director.click("#start")
    watcher.wait_for_selector("#bracket .b-match")  # drawn on the watcher's page without a reload
    assert watcher.locator("#bracket .b-match").count() == 3
    assert watcher.locator("#tables a").count() == 2 and fits_the_phone(watcher)
    watcher.screenshot(path=str(screenshots / "tournament-live-draw-phone.png"), full_page=True)


def test_a_player_on_another_page_is_told_that_their_tournament_match_is_ready(site_server, new_page, screenshots):
    from tests.browser.test_site import make_admin

    base, _ = site_server
    pk = manage(site_server, "tournament", "create", "--name", "Notice cup", "--format", "knockout", "--length", "1")
    pages = {}
    for prefix, elsewhere in (("ann", "/"), ("bob", "/tournaments/")):
        page = new_page(PHONE)
        name = sign_up(page, base, prefix=prefix)
        page.goto(f"{base}/tournaments/{pk}/")
        page.click("#enter")
        page.wait_for_selector("#withdraw")
        page.goto(f"{base}{elsewhere}")  # not the tournament's page
        pages[name] = page
    admin = make_admin(site_server, name="notices-director")
    director = new_page()
    director.goto(f"{base}/accounts/login/?next=/tournaments/{pk}/")
    director.fill("input[name=username]", admin[0])
    director.fill("input[name=password]", admin[1])
    director.click("main button[type=submit], main input[type=submit]")
    director.wait_for_url(f"**/tournaments/{pk}/")
    director.click("#start")
    (ann, bob) = pages
    for me, them in ((ann, bob), (bob, ann)):
        notice = pages[me].locator("#live-notices .live-notice")
        notice.wait_for()
        assert "Notice cup" in notice.inner_text() and them in notice.inner_text()
        assert fits_the_phone(pages[me])
    pages[ann].screenshot(path=str(screenshots / "tournament-notice-phone.png"), full_page=True)
    pages[ann].locator("#live-notices .live-notice a").click()
    pages[ann].wait_for_url("**/games/*/")


RUN_ANALYSES = """
from games.models import Job
from games.tasks.long import run_job
for pk in list(Job.objects.filter(kind="analysis", status=Job.QUEUED).values_list("pk", flat=True)):
    run_job.call_local(pk)
"""


def test_the_pr_table_fills_in_on_an_open_page_as_the_analyses_finish(site_server, new_page, screenshots,
                                                                      monkeypatch):
    base, _ = site_server
    monkeypatch.setenv("GAMES_ANALYSIS_AUTO", "1")  # the automatic analysis of every finished match,
    monkeypatch.setenv("GAMES_ANALYSIS_DEPTH", "0")  # at 0-ply to be quick
    pk = manage(site_server, "tournament", "create", "--name", "PR night", "--format", "knockout", "--length", "1",
                "--bots", "random:2", "--start", "now")
    manage(site_server, "shell", "-c", RUN_TO_END.format(pk=pk))  # the match ends: its analysis is queued
    page = new_page(PHONE)
    page.goto(f"{base}/tournaments/{pk}/")
    assert page.locator("#tables a.t-mat").count() == 1
    assert page.locator("#tables a.t-analysis.status-queued").count() == 1
    assert page.locator("#pr-table tbody tr").count() == 2
    assert page.locator("#pr-table td.pr").all_inner_texts() == ["–", "–"]
    manage(site_server, "shell", "-c", RUN_ANALYSES)  # a long worker's run, in another process
    # the page hears of the new version (its socket's idle ping at the latest) and fetches its fragment
    page.wait_for_selector("#tables a.t-analysis.status-done", timeout=45_000)
    prs = page.locator("#pr-table td.pr").all_inner_texts()
    assert all(pr != "–" for pr in prs) and [float(pr) for pr in prs] == sorted(float(pr) for pr in prs)
    assert "Analysis: PR" in page.locator("#tables").inner_text() and fits_the_phone(page)
    page.screenshot(path=str(screenshots / "tournament-pr-table-phone.png"), full_page=True)
    mat = page.request.get(base + page.locator("#tables a.t-mat").get_attribute("href"))
    assert mat.ok and "1 point match" in mat.text()
