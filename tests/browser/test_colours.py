"""The site's colours in every scheme, in Chromium: the "theme" setting light, dark, or "as my
device" on a dark device. Every visible text on the main pages keeps WCAG AA contrast in each;
"as my device" on a dark device paints every element as the dark setting does; the light
setting stays light on a dark device. Guests get "as my device". Screenshots:
artifacts/screenshots/colours-*."""

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.layout import COLOURS, LOW_CONTRAST
from tests.browser.test_analysis_page import MAKE
from tests.browser.test_tournaments import RUN_TO_END
from tests.live import Site

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DATA = """
import json
from games.models import Game
print("RESULT " + json.dumps(Game.objects.filter(match__tournament_link__tournament_id={pk}).order_by("pk").first().pk))
"""

SET_THEME = """theme => fetch('/settings.json', {method: 'POST', body: JSON.stringify({theme}),
  headers: {'Content-Type': 'application/json', 'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1]}})
  .then(r => r.status)"""


def _pages(tournament, game, analysis):
    """(name, path, what shows the page is drawn)."""
    return [
        ("lobby", "/", "() => document.querySelector('#lobby-status.on')"),
        ("tournament", f"/tournaments/{tournament}/", "() => document.querySelectorAll('#bracket .b-match').length === 7"),
        # the seats' presence dots come in their own message after the snapshot, the end
        # dialog's analysis line (end_stats.mjs) after its own fetch
        ("game", f"/games/{game}/",
         "() => window.bg && bg.state.version > 0 && bg.state.presence && document.getElementById('end-stats')"),
        ("analysis", f"/analysis/{analysis}/",
         "() => document.querySelector('#analysis[data-status=done]') && document.getElementById('analysis').dataset.step === '0'"),
        ("leaderboard", "/leaderboard/", "() => document.readyState === 'complete'"),
        ("settings", "/settings/", "() => document.readyState === 'complete'"),
    ]


def test_every_scheme_is_readable_and_the_device_scheme_matches_the_setting(browser, tmp_path, screenshots):
    with Site(tmp_path / "site", webs=1, workers=0) as site:
        analysis = site.shell(MAKE)["id"]
        tournament = site.manage("tournament", "create", "--name", "Bots night", "--format", "knockout", "--length", "1",
                                 "--bots", "random:8", "--start", "now").strip()
        game = site.shell(RUN_TO_END.format(pk=tournament) + DATA.format(pk=tournament))
        cookie = site.sessions(["paula"])["paula"]
        pages = _pages(tournament, game, analysis)

        def visit(setting, device, *, guest=False):
            """Each page with the theme ``setting`` on a ``device`` (light or dark): its colours."""
            context = browser.new_context(viewport=DESKTOP, color_scheme=device)
            context.set_default_timeout(15_000)
            page = context.new_page()
            if not guest:
                context.add_cookies([{"name": "sessionid", "value": cookie, "url": site.url()}])
                page.goto(f"{site.url()}/settings/")
                assert page.evaluate(SET_THEME, setting) == 200
            seen = {}
            try:
                for name, path, ready in pages[:1] if guest else pages:
                    page.goto(site.url() + path)
                    page.wait_for_function(ready)
                    assert page.get_attribute("html", "data-theme") == setting
                    assert page.evaluate(LOW_CONTRAST) == [], (setting, device, name)
                    seen[name] = page.evaluate(COLOURS)
                    label = f"colours-{'guest-' if guest else ''}{setting}-{device}-{name}"
                    page.screenshot(path=str(screenshots / f"{label}.png"), full_page=True)
                    if name == "tournament":
                        page.set_viewport_size(PHONE)
                        assert page.evaluate(LOW_CONTRAST) == [], (setting, device, name, "phone")
                        page.screenshot(path=str(screenshots / f"{label}-phone.png"), full_page=True)
                        page.set_viewport_size(DESKTOP)
            finally:
                context.close()
            return seen

        by_device = visit("auto", "dark")
        dark = visit("dark", "light")
        for name, _path, _ready in pages:
            assert by_device[name] == dark[name], name
        light = visit("light", "dark")
        for name, _path, _ready in pages:
            assert light[name] != dark[name], name  # the light setting is not the device's dark
        assert light == visit("auto", "light")
        # a guest's lobby on a dark device (its sign-up line was cream under light text)
        visit("auto", "dark", guest=True)
