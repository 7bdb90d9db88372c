"""The analysis page as a coach would show it, in Chromium, on a real 1-ply analysis (two
games of the recorded house-bot match: 1-ply mixes plays looked at 1-ply deep with plays
the filter left at 0-ply, the case where the played play used to sit above better ones).

Checked: the list of plays is sorted by equity after the best, the play made in its place,
the shallower ones marked with a note; the board shows the position before the decision with
the play made and the best play as arrows (and a legend naming them), and toggles to after;
luck in EMG with its explanation; PR and the rating words with the scale; the biggest errors,
whose links jump to their decision; per game the error rate and luck, and the game's equity
graph with its errors marked, a click on a mark going to that decision. Desktop and phone,
screenshots light and dark."""

import re

import pytest

from tests.browser.conftest import PHONE
from tests.live import Site

pytestmark = [pytest.mark.browser]
WIDE = {"width": 1366, "height": 850}

MAKE = """
import json
from games import services
from games.analysis.game import analyse_match
from games.models import Analysis
fixture = json.load(open("tests/fixtures/analysis_match.json"))
owner = services.player_register(username="paula", password=None)
result = analyse_match(fixture["games"][1:3], ply=1)  # two games; the first holds a decision of the kind below
# one decision as analyses stored before the ranking by equity listed it: deeper plies first
decisions = result["games"][0]["decisions"]  # in the first game: the graph shows one game at a time
k = next(k for k, d in enumerate(decisions) if d["kind"] == "move" and d["play"] and not d["play"]["forced"]
         and len({a["ply"] for a in d["play"]["alternatives"]}) > 1 and d["play"]["rank"] > 1
         and any(a["ply"] == 0 and a["equity"] > p["equity"] for p in d["play"]["alternatives"] if p["played"]
                 for a in d["play"]["alternatives"]))
play = decisions[k]["play"]
play["alternatives"].sort(key=lambda a: (-a["ply"], -a["equity"]))
for rank, a in enumerate(play["alternatives"], start=1):
    a["rank"] = rank
    if a["played"]:
        play["rank"] = rank
a = Analysis.objects.create(source=Analysis.UPLOAD, owner=owner, depth=1, length=fixture["length"],
                            white_name="casual", black_name="intermediate", result=result)
print("RESULT " + json.dumps({"id": a.pk, "k": k, "legacyRank": play["rank"]}))
"""


def _equities(page):
    return [float(t.replace("−", "-")) for t in page.locator("#alternatives .alt-eq").all_inner_texts()]


def test_the_analysis_page_sorts_explains_and_jumps(browser, tmp_path, screenshots):
    with Site(tmp_path / "site", webs=1, workers=0) as site:
        made = site.shell(MAKE)
        cookie = site.sessions(["paula"])["paula"]
        for viewport, name, scheme in ((WIDE, "desktop", "light"), (PHONE, "phone", "dark")):
            context = browser.new_context(viewport=viewport, color_scheme=scheme)
            context.set_default_timeout(15_000)
            context.add_cookies([{"name": "sessionid", "value": cookie, "url": site.url()}])
            page = context.new_page()
            try:
                page.goto(f"{site.url()}/analysis/{made['id']}/")
                page.wait_for_selector('#analysis[data-status="done"]', state="attached")
                page.wait_for_function("() => document.getElementById('analysis').dataset.step === '0'")
                data = page.evaluate("fetch(document.getElementById('analysis').dataset.url).then(r => r.json())")
                decisions = [d for g in data["analysis"]["games"] for d in g["decisions"]]

                # the decision stored in the old order (deeper plies first): the play made, looked at
                # 1-ply deep, sat above a better play left at 0-ply; the page lists them by equity
                k = made["k"]
                alts = decisions[k]["play"]["alternatives"]
                assert [a["ply"] for a in alts] == sorted((a["ply"] for a in alts), reverse=True)
                page.locator(f'#graph rect[data-step="{k}"]').click(force=True)
                page.wait_for_function(f"() => document.getElementById('analysis').dataset.step === '{k}'")
                eq = _equities(page)
                best = max(a["equity"] for a in alts if a["ply"] == 1)
                assert eq[0] == round(best, 3) and eq[1:] == sorted(eq[1:], reverse=True), eq
                texts = page.locator("#alternatives .alt-play").all_inner_texts()
                assert [int(t.split(".")[0]) for t in texts] == list(range(1, len(texts) + 1))
                played = next(t for t in texts if t.endswith("(played)"))
                assert int(played.split(".")[0]) > made["legacyRank"]  # better 0-ply plays now above it
                assert f"rank {played.split('.')[0]} of" in page.locator("#what").inner_text()
                assert page.locator("#alternatives .alt-ply").count() >= 1
                assert "were not looked at 1-ply deep" in page.locator("#alt-note").inner_text()

                # the board: before the decision with the play made and the best play as arrows (not
                # the best: two styles, both named by the legend), then after the play made, and back
                assert page.locator("#analysis").get_attribute("data-view") == "before"
                assert page.locator("#board-when").inner_text() == "Before the play"
                steps = {(m["from"], m["to"]) for m in decisions[k]["play"]["moves"]}  # 6/5(2): one arrow, "×2"
                assert page.locator("#board path.arrow.played").count() == len(steps)
                if len(steps) < len(decisions[k]["play"]["moves"]):
                    assert page.locator("#board text.arrow-count.played").count() >= 1
                assert page.locator("#board path.arrow.best").count() >= 1
                assert page.locator("#board path.arrow.both").count() == 0
                assert page.locator("#arrow-legend").is_visible()
                assert page.locator("#key-played").is_visible() and page.locator("#key-best").is_visible()
                assert not page.locator("#key-both").is_visible()
                assert page.locator("#board path.arrow.best").first.evaluate(
                    "e => getComputedStyle(e).strokeDasharray") not in ("", "none")
                page.screenshot(path=str(screenshots / f"analysis-arrows-{name}-{scheme}.png"), full_page=False)
                before = page.locator("#board").inner_html()
                page.locator("#board-toggle").click()
                assert page.locator("#analysis").get_attribute("data-view") == "after"
                assert page.locator("#board").inner_html() != before
                assert page.locator("#board path.arrow").count() == 0 and not page.locator("#arrow-legend").is_visible()
                page.locator("#board-toggle").click()
                assert page.locator("#board").inner_html() == before

                # luck in one unit, explained; PR and the rating words with the scale
                assert re.search(r"Luck of the roll: [+-]\d\.\d{3} EMG", page.locator("#luck-line").inner_text())
                assert "in EMG" in page.locator("#luck-note").inner_text()
                assert "lower is better" in page.locator("#pr-note").inner_text()
                scale = page.locator("#rating-scale li").all_inner_texts()
                assert scale[0].startswith("Supernatural: PR below 1.0") and scale[-1].startswith("Awful")
                assert page.locator("#rating-scale li.held").count() >= 1
                assert "_" not in page.locator("#stats").inner_text()  # "Casual player", not "casual_player"

                # per game: a row each with both players' error rate and luck; a row's link goes to the
                # game's first decision and the graph becomes that game's, its errors marked and clickable
                rows = page.locator("#games tbody tr")
                assert rows.count() == len(data["analysis"]["games"]) == 2
                assert "wins" in rows.nth(0).inner_text() and re.search(r"\d+(\.\d+)? · [+-]\d\.\d{3}", rows.nth(0).inner_text())
                first_of_2 = len(data["analysis"]["games"][0]["decisions"])
                rows.nth(1).locator("a").click()
                page.wait_for_function(f"() => document.getElementById('analysis').dataset.step === '{first_of_2}'")
                assert page.locator("#analysis").get_attribute("data-game") == "1"
                number = (data["analysis"]["games"][1].get("game") or {}).get("number") or 2  # the game's number in its match
                assert page.locator("#graph-title").inner_text().startswith(f"Game {number}:")
                assert page.locator("#games tr.current").get_attribute("data-game") == "1"
                hits = page.locator("#graph rect[data-step]")
                assert hits.count() == len(data["analysis"]["games"][1]["decisions"])
                marks = page.locator("#graph circle.graph-err")
                assert marks.count() >= 1
                target = int(marks.nth(0).get_attribute("data-step"))
                marks.nth(0).click(force=True)
                page.wait_for_function(f"() => document.getElementById('analysis').dataset.step === '{target}'")
                assert page.locator("#analysis").get_attribute("data-mark") != ""
                page.locator("#first").click()
                page.wait_for_function("() => document.getElementById('analysis').dataset.game === '0'")

                # the biggest errors: each player's (a stranger to the match), worst first; a link jumps
                links = page.locator("#errors a[data-step]")
                assert links.count() >= 2
                target = int(links.nth(1).get_attribute("data-step"))
                links.nth(1).click()
                page.wait_for_function(f"() => document.getElementById('analysis').dataset.step === '{target}'")
                assert page.url.endswith(f"#decision-{target + 1}")
                assert page.locator("#analysis").get_attribute("data-mark") != ""
                page.locator("#first").click()
                page.locator(f'#graph rect[data-step="{k}"]').click(force=True)
                wide = page.evaluate("() => [...document.querySelectorAll('body *')].filter(e => "
                                     "e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5)"
                                     ".map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + e.getBoundingClientRect().right)")
                assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"), wide
                page.screenshot(path=str(screenshots / f"analysis-coach-{name}-{scheme}.png"), full_page=True)
                other = "dark" if scheme == "light" else "light"
                page.emulate_media(color_scheme=other)
                page.screenshot(path=str(screenshots / f"analysis-coach-{name}-{other}.png"), full_page=True)
                page.emulate_media(color_scheme=scheme)

                # a link to a decision opens the page there (and a changed one moves to it)
                page.goto(f"{site.url()}/analysis/{made['id']}/#decision-{k + 1}")
                page.wait_for_function(f"() => document.getElementById('analysis').dataset.step === '{k}'")
                page.reload()
                page.wait_for_selector('#analysis[data-status="done"]', state="attached")
                page.wait_for_function(f"() => document.getElementById('analysis').dataset.step === '{k}'")
            finally:
                context.close()
        assert not site.tracebacks(), site.logs()
