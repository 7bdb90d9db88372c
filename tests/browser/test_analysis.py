"""End to end: a match played on the site (a human over the websocket against a house bot
played by the worker) and a .mat uploaded in the browser are both analysed by the real
worker process (``manage.py run_huey``) and shown on the analysis page, on a desktop and on
a phone, with the keyboard. Every wait polls with a deadline."""

import re

import pytest

from tests.browser.conftest import CHROMIUM_ARGS, DESKTOP, PHONE  # noqa: F401 - the shared browser setup
from tests.live import Site
from tests.workers.test_workers import VS_BOT, human_plays, run_async

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SET_RUNNING = """
import json
from django.utils import timezone
from games.models import Analysis, Job
a = Analysis.objects.get(pk=%d)
Analysis.objects.filter(pk=a.pk).update(result=None, upload={"kept": a.result})  # the test keeps it here
Job.objects.filter(pk=a.job_id).update(status=Job.RUNNING, progress=0.4, message="game 1 of 1: decision 9 of 20",
                                       heartbeat_at=timezone.now())
print("RESULT 1")
"""

SET_DONE = """
import json
from games.models import Analysis, Job
a = Analysis.objects.get(pk=%d)
Analysis.objects.filter(pk=a.pk).update(result=a.upload["kept"], upload={})
Job.objects.filter(pk=a.job_id).update(status=Job.DONE, progress=1.0)
print("RESULT 1")
"""

ANALYSIS_OF = """
import json
from games.models import Analysis
rows = [{"id": a.pk, "source": a.source, "status": a.job.status if a.job else None, "depth": a.depth}
        for a in Analysis.objects.select_related("job").order_by("pk")]
print("RESULT " + json.dumps(rows))
"""


def _open(browser, site, cookie, viewport):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "sessionid", "value": cookie, "url": site.url()}])
    return context, context.new_page()


def _wait_done(page, timeout=180_000):
    page.wait_for_selector('#analysis[data-status="done"]', state="attached", timeout=timeout)
    page.wait_for_function("() => document.getElementById('analysis').dataset.step === '0'")


def _step(page) -> int:
    return int(page.locator("#analysis").get_attribute("data-step"))


def test_a_played_match_and_an_uploaded_mat_are_analysed_by_the_worker_and_shown(browser, tmp_path, screenshots):
    with Site(tmp_path / "site", webs=1, workers=1, env={"GAMES_ANALYSIS_DEPTH": "0", "GAMES_ANALYSIS_AUTO": "1"}) as site:
        ids = site.shell(VS_BOT)
        cookie = site.sessions(["hugo"])["hugo"]
        run_async(human_plays(site, ids, cookie), timeout=300)

        context, page = _open(browser, site, cookie, DESKTOP)
        try:
            page.goto(f"{site.url()}/matches/{ids['match']}/analysis/")
            _wait_done(page)
            data = page.evaluate("fetch(document.getElementById('analysis').dataset.url).then(r => r.json())")
            assert data["status"] == "done" and data["viewer"] == "white" and data["depth"] == 0
            assert data["job"]["progress"] == 1.0
            decisions = [d for g in data["analysis"]["games"] for d in g["decisions"]]
            n = len(decisions)
            assert n > 5
            assert re.search(rf"decision 1 of {n}", page.locator("#what").inner_text())
            assert "PR" in page.locator("#stats").inner_text()

            # the keyboard steps through the decisions
            page.locator("body").press("ArrowRight")
            assert _step(page) == 1
            page.locator("body").press("End")
            assert _step(page) == n - 1
            page.locator("body").press("Home")
            assert _step(page) == 0

            # a click on the graph jumps to that decision
            page.locator(f'#graph rect[data-step="{n // 2}"]').click(force=True)
            assert _step(page) == n // 2

            # an alternative clicked is shown on the board
            first_alt = next(k for k, d in enumerate(decisions)
                             if d["kind"] == "move" and d["play"] and len(d["play"].get("alternatives") or []) > 1)
            page.locator(f'#graph rect[data-step="{first_alt}"]').click(force=True)
            before = page.locator("#board").inner_html()
            other = page.locator("#alternatives button:not(.played)").first
            other.click()
            assert page.locator("#alternatives button.shown:not(.played)").count() == 1
            assert page.locator("#board").inner_html() != before
            page.screenshot(path=str(screenshots / "analysis-desktop.png"))

            # "only my errors": stepping visits only White's (hugo's) marked decisions
            mine = [k for k, d in enumerate(decisions) if d["player"] == "white" and (
                d.get("mark") or (d.get("play") or {}).get("mark") or (d.get("cube") or {}).get("mark")
                if d["kind"] == "move" else d.get("mark"))]
            page.locator("body").press("Home")
            page.locator("#errors-only").check()
            if mine:
                assert _step(page) == mine[0]
                assert page.locator("#analysis").get_attribute("data-player") == "white"
                assert page.locator("#analysis").get_attribute("data-mark") != ""
                if len(mine) > 1:
                    page.locator("#next").click()
                    assert _step(page) == mine[1]
            else:
                assert page.locator("#next").is_disabled()

            # the game page of the finished match shows the analysis statistics
            page.goto(f"{site.url()}/games/{ids['game']}/")
            page.wait_for_function("() => (document.getElementById('end-stats') || {}).textContent?.includes('PR')")
            assert "See every decision" in page.locator("#end-stats").inner_text()

            # the .mat of the same match, uploaded in the browser
            mat = page.request.get(f"{site.url()}/matches/{ids['match']}/export.mat").text()
            path = tmp_path / "match.mat"
            path.write_text(mat)
            page.goto(f"{site.url()}/analysis/upload/")
            page.set_input_files("#file", str(path))
            page.select_option("#depth", "0")
            page.locator("#upload").click()
            page.wait_for_url(re.compile(r"/analysis/\d+/$"))
            _wait_done(page)
            uploaded = page.evaluate("fetch(document.getElementById('analysis').dataset.url).then(r => r.json())")
            assert uploaded["source"] == "upload"
            assert sum(len(g["decisions"]) for g in uploaded["analysis"]["games"]) == n
            assert uploaded["analysis"]["stats"]["white"]["overall"] == data["analysis"]["stats"]["white"]["overall"]
            assert re.search(rf"decision 1 of {n}", page.locator("#what").inner_text())

            # a file with an illegal move: refused with its line, nothing stored
            lines = mat.splitlines()
            index = next(k for k, line in enumerate(lines) if re.match(r"\s*1\)", line))
            lines[index] = re.sub(r"(\d\d): (\S+ ?)+$", r"\1: 24/10", lines[index].rstrip())
            path.write_text("\n".join(lines) + "\n")
            page.goto(f"{site.url()}/analysis/upload/")
            page.set_input_files("#file", str(path))
            page.locator("#upload").click()
            error = page.locator("#upload-error")
            assert f"Line {index + 1}:" in error.inner_text()
            assert error.get_attribute("data-code") == "illegal_move"
        finally:
            context.close()

        rows = site.shell(ANALYSIS_OF)
        assert [(r["source"], r["status"]) for r in rows] == [("match", "done"), ("upload", "done")]

        # live progress while a job runs, then the analysis once it is done (the page polls)
        context, page = _open(browser, site, cookie, DESKTOP)
        try:
            site.shell(SET_RUNNING % rows[0]["id"])
            page.goto(f"{site.url()}/matches/{ids['match']}/analysis/")
            page.wait_for_selector("#progress:not([hidden])")
            page.wait_for_function("() => document.getElementById('progress-text').textContent.includes('40%')")
            assert "decision 9 of 20" in page.locator("#progress-text").inner_text()
            site.shell(SET_DONE % rows[0]["id"])
            _wait_done(page, timeout=20_000)
            assert page.locator("#progress").is_hidden()
        finally:
            context.close()

        # on a phone: the same page, one column, nothing wider than the screen
        context, page = _open(browser, site, cookie, PHONE)
        try:
            page.goto(f"{site.url()}/matches/{ids['match']}/analysis/")
            _wait_done(page)
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
            page.locator("#next").click()
            assert _step(page) == 1
            page.screenshot(path=str(screenshots / "analysis-phone.png"), full_page=True)
        finally:
            context.close()
        assert not site.tracebacks(), site.logs()


QUEUED_UPLOADS = """
import json
from games import services
from games.models import Analysis, Job
from games.services import jobs
hugo = services.player_register(username="hugo", password=None)
game = [{"type": "game_start", "payload": {}, "version": 1}, {"type": "move", "payload": {}, "version": 2}]
ids = []
for n in range(2):
    a = Analysis.objects.create(source=Analysis.UPLOAD, owner=hugo, depth=3, white_name="a", black_name="b",
                                length=1, upload={"games": [game]})
    a.job = jobs.job_start(kind="analysis", key=f"queued:{n}", params={"analysis": a.pk}, by=hugo)
    a.save(update_fields=["job"])
    ids.append(a.pk)
print("RESULT " + json.dumps(ids))
"""

TIME_OUT = """
from games.models import Analysis, Job
from games.services import jobs
a = Analysis.objects.get(pk=%d)
Job.objects.filter(pk=a.job_id).update(status=Job.RUNNING)
jobs.job_stopped(a.job_id, Job.TIMED_OUT)
print("RESULT 1")
"""


def test_the_page_cancels_a_queued_analysis_and_says_when_one_ran_over_its_time_limit(browser, tmp_path):
    """No long worker: the analyses stay queued. Their owner cancels one with the page's button;
    another, stopped by the time limit, says so on its page, with Retry."""
    with Site(tmp_path / "site", webs=1, workers=0) as site:
        cancelled, timed_out = site.shell(QUEUED_UPLOADS)
        cookie = site.sessions(["hugo"])["hugo"]
        context, page = _open(browser, site, cookie, DESKTOP)
        try:
            page.goto(f"{site.url()}/analysis/{cancelled}/")
            page.wait_for_selector("#progress:not([hidden])")
            page.locator("#cancel").click()
            page.wait_for_selector('#analysis[data-status="cancelled"]', state="attached")
            assert "The analysis was cancelled." in page.locator("#failed-text").inner_text()
            assert page.locator("#retry").is_visible() and page.locator("#cancel").is_hidden()

            site.shell(TIME_OUT % timed_out)
            page.goto(f"{site.url()}/analysis/{timed_out}/")
            page.wait_for_selector('#analysis[data-status="timed_out"]', state="attached")
            text = page.locator("#failed-text").inner_text()
            assert "ran over its time limit" in text and "time limit of 600 s" in text
            assert page.locator("#retry").is_visible()
        finally:
            context.close()
        assert [r["status"] for r in site.shell(ANALYSIS_OF)] == ["cancelled", "timed_out"]
        assert not site.tracebacks(), site.logs()
