"""Issue 14 in Chromium: the site as players expect it (desktop and phone).

Each test names the numbered items of the issue it covers. Screenshots go to
artifacts/screenshots/ (lobby, game, game end, match end, replay, dice check; desktop and
phone)."""

import os
import re
import subprocess
import sys

import pytest

from tests.browser.conftest import DESKTOP, PHONE, ROOT
from tests.browser.layout import WIDER
from tests.browser.helpers import (
    click_play, create_match, fill_sign_up, game_state, join_by_invite, script_dice, sign_up,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PAGE_WEIGHT_LIMIT = 200 * 1024  # bytes of the site's own JS and CSS on one page (issue 28: at most 200 KB)


def shoot(page, screenshots, name):
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_timeout(50)  # one frame for the layout (a screenshot, not an assertion)
        page.screenshot(path=str(screenshots / f"{name}-{label}.png"), full_page=label == "phone")
    page.set_viewport_size(DESKTOP)


def make_admin(site_server, name="admin"):
    """A superuser in the live server's database (``manage.py createsuperuser``, as the README says)."""
    _, script = site_server
    env = {**os.environ, "SQLITE_PATH": str(script.parent / "db.sqlite3"), "DJANGO_DEBUG": "1",
           "DJANGO_SUPERUSER_PASSWORD": "an admin pass 123", "PYTHONPATH": str(ROOT)}
    env.pop("DATABASE_URL", None)
    subprocess.run([sys.executable, "manage.py", "createsuperuser", "--noinput", "--username", name,
                    "--email", f"{name}@example.org"], cwd=ROOT, env=env, check=True, capture_output=True)
    return name, "an admin pass 123"


def admin_action(page, base, admin, url, action):
    """Log in to the admin (once) and run ``action`` on every row listed at ``url``."""
    page.goto(f"{base}{url}")
    if "/login/" in page.url:
        page.fill("input[name=username]", admin[0])
        page.fill("input[name=password]", admin[1])
        page.click("input[type=submit], button[type=submit]")
        page.wait_for_url(f"**{url.split('?')[0]}*")
    page.check("#action-toggle")
    page.select_option("select[name=action]", action)
    page.click("button[name=index], input[name=index]")
    page.wait_for_selector(".messagelist .success")


def start_match(site_server, new_page, *, length=3, private=False, rolls=([3], [1]), names=("white", "black")):
    base, dice = site_server
    white, black = new_page(), new_page()
    sign_up(white, base, names[0])
    sign_up(black, base, names[1])
    match_id, invite = create_match(white, base, length=length, cube=True if length > 1 else None, private=private)
    script_dice(dice, match_id, list(rolls))
    join_by_invite(black, invite)
    white.wait_for_url(re.compile(r".*/games/\d+/$"))
    for page in (white, black):
        page.wait_for_function("() => window.bg && bg.state.phase === 'move' && document.body.dataset.connected === '1'")
    return white, black, match_id


def own_bytes(page, url):
    """Bytes of the site's own JS and CSS that ``url`` loads (the browser's network, not a guess)."""
    sizes = {}

    def seen(response):
        if "/static/" in response.url and re.search(r"\.(m?js|css)(\?|$)", response.url) and response.status == 200:
            sizes[response.url] = len(response.body())

    page.on("response", seen)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.remove_listener("response", seen)
    return sum(sizes.values()), sizes


# -- 1, 4, 8, 10: the computer, the lobby -------------------------------------------------------------

def test_playing_the_computer_levels_presence_and_limit(site_server, new_page, screenshots):
    base, _ = site_server
    page = new_page()
    sign_up(page, base, "solo")
    page.goto(f"{base}/")
    # 8: a sensible default, readable names, a line about each level
    assert page.eval_on_selector("#bot-level", "s => s.value") == "intermediate"
    labels = page.eval_on_selector_all("#bot-level option", "os => os.map(o => o.textContent)")
    assert "World class" in labels and not any("_" in label for label in labels)
    assert page.locator("#level-help li").count() == len(labels)
    assert "strong" in page.text_content('#level-help li[data-level="advanced"]')
    page.select_option("#bot-level", "random")
    page.click(".bot-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    game_url = page.url
    # 1: the computer is always at the table: no claim, no "away"
    page.wait_for_function("() => bg.state.presence && bg.state.presence.white.connected")
    you = game_state(page)["you"]
    bot = "black" if you == "white" else "white"
    assert page.evaluate(f"() => bg.state.presence.{bot}.connected && bg.state.presence.{bot}.bot")
    assert page.get_attribute("#seat-top [data-presence]", "class") == "dot on"
    assert page.is_hidden('[data-act="claim"]') and page.is_hidden("#away-note")
    # 4: a second match is fine, a third is refused with a clear message
    for expected in ("game", "refused"):
        page.goto(f"{base}/")
        page.click(".bot-form button[type=submit]")
        if expected == "game":
            page.wait_for_url(re.compile(r".*/games/\d+/$"))
        else:
            page.wait_for_selector(".message.error")
            assert "at most 2" in page.text_content(".message.error")
    # 10: "Your games" to resume from
    assert page.locator("#my-games tbody tr").count() == 2
    page.click("#my-games tbody tr:last-child a:has-text('Resume')")
    page.wait_for_url(game_url)


def test_an_invite_survives_sign_up_and_the_lobby_tracks_who_is_at_the_table(site_server, new_page, screenshots):
    base, dice = site_server
    host, friend, watcher, visitor = new_page(), new_page(), new_page(), new_page()
    sign_up(host, base, "host")
    sign_up(watcher, base, "watcher")
    match_id, invite = create_match(host, base, length=3, cube=True, private=False)
    script_dice(dice, match_id, [[3], [1]])
    # 6: the friend has no account: sign up from the invite page, and land back on it
    friend.goto(invite)
    friend.click("#join-signup")
    fill_sign_up(friend, "friend1")
    friend.wait_for_url(invite)
    friend.click("#join-button")
    friend.wait_for_url(re.compile(r".*/games/\d+/$"))
    game_url = friend.url
    host.wait_for_url(game_url)
    for page in (host, friend):
        page.wait_for_function("() => bg.state.presence && bg.state.presence.white.connected && bg.state.presence.black.connected")
    # 10: the lobby says Resume for your own game, Watch for others'
    host_lobby = host.context.new_page()
    host_lobby.goto(f"{base}/")
    host_lobby.wait_for_selector(f'#live-matches tr[data-match="{match_id}"] a:has-text("Resume")')
    assert host_lobby.locator(f'#my-games tr[data-match="{match_id}"]').count() == 1
    watcher.goto(f"{base}/")
    watcher.wait_for_selector(f'#live-matches tr[data-match="{match_id}"] a:has-text("Watch")')
    shoot(watcher, screenshots, "lobby")
    host_lobby.close()
    # 10: a visitor watching sees how to join the chat
    visitor.goto(game_url)
    visitor.wait_for_selector("#chat-login:visible")
    assert "next=" in visitor.get_attribute("#chat-login a", "href")
    assert visitor.is_hidden("#chat-form")
    # 5: the friend leaves: a countdown, not an immediate claim
    friend.close()
    host.wait_for_selector("#away-note:visible")
    assert re.search(r"in [12]:\d\d", host.text_content("#away-note")), host.text_content("#away-note")
    assert host.is_hidden('[data-act="claim"]')
    # 4: once everyone left, the game leaves the public list (it comes back with a player)
    host.close()
    watcher.wait_for_selector(f'#live-matches tr[data-match="{match_id}"]', state="detached")


# -- 3, 7, 11, 12, 13, 14 and the turn notice: a game's end, the replay, the dice check --------------

def test_the_end_of_a_game_stays_in_view_then_the_next_game_starts(site_server, new_page, screenshots):
    base, _ = site_server
    white, black, match_id = start_match(site_server, new_page, length=3, names=("ann", "ben"))
    script_dice(site_server[1], match_id, [[1], [6]], game=2)  # Black opens game 2
    # 7: the board is in the tab order and the screen reader hears where the checkers are
    assert white.get_attribute("#board", "tabindex") == "0"
    white.keyboard.press("Tab")
    white.focus("#board")
    assert white.evaluate("() => document.activeElement.id") == "board"
    desc = white.text_content("#board-desc")
    assert "White checkers: 2 on 24, 5 on 13, 3 on 8, 5 on 6" in desc and "Black checkers:" in desc
    assert white.is_visible("#keys-hint")
    # your turn, noticed: Black's tab is in the background when White moves
    black.evaluate("""() => { Object.defineProperty(document, 'visibilityState', {get: () => 'hidden', configurable: true});
                              document.dispatchEvent(new Event('visibilitychange')); }""")
    first_game = game_state(white)["game"]
    click_play(white, game_state(white)["legal"][0])
    black.wait_for_function("() => document.title.startsWith('● Your turn')")
    assert "favicon-turn" in black.get_attribute("#favicon", "href")
    black.evaluate("""() => { Object.defineProperty(document, 'visibilityState', {get: () => 'visible', configurable: true});
                              document.dispatchEvent(new Event('visibilitychange')); }""")
    black.wait_for_function("() => !document.title.startsWith('●')")
    # 14: moves are numbered from 1 (the opening roll is not a move) and say who moved
    first = white.locator("#moves li:not(.info)").first
    assert first.get_attribute("value") == "1"
    assert "ann" in first.text_content()
    # Black doubles, White passes: game 1 is over
    black.wait_for_selector('[data-act="double"]:visible')
    black.click('[data-act="double"]')
    white.wait_for_selector('[data-act="drop"]:visible')
    final_board = game_state(white)["board"]
    white.click('[data-act="drop"]')
    # 3: the end stays in view: the final position, the result and the score, no dialog over it
    # (for White: game 2 waits for Black, whose board goes on to it at once, issue 28)
    black.wait_for_function(f"() => bg.state.game !== {first_game} && bg.state.actor === 'black'")
    assert black.is_hidden('[data-act="next"]')
    for page in (white,):
        page.wait_for_selector('[data-act="next"]:visible')
        line = page.text_content("#status-line")
        assert re.search(r"ben\d* wins 1 point", line) and "0 – 1" in line and "Next game in" in line, line
        assert page.is_hidden("#end-dialog")
        assert game_state(page)["game"] == first_game and game_state(page)["board"] == final_board
    assert white.is_visible("#over-verify") and white.is_visible("#over-replay")
    shoot(white, screenshots, "game-end")
    # White goes on at once
    white.click('[data-act="next"]')
    white.wait_for_function(f"() => bg.state.game !== {first_game}")
    # 11: on a phone the point numbers are readable and move numbers are not clipped
    white.set_viewport_size(PHONE)
    white.wait_for_selector("#board text.label.big")
    height = white.eval_on_selector("#board text.label", "t => t.getBoundingClientRect().height")
    assert height >= 9, height
    white.set_viewport_size(DESKTOP)

    # 12: the replay fits a 1366x850 window, its buttons say what they do, it has a move list
    replay = new_page(viewport={"width": 1366, "height": 850})
    sign_up(replay, base, "rev")
    white.goto(f"{base}/games/{first_game}/replay/")
    white.set_viewport_size({"width": 1366, "height": 850})
    white.wait_for_selector("#replay-moves li")
    bottom = white.eval_on_selector("#board", "b => b.getBoundingClientRect().bottom")
    assert bottom <= 850, bottom
    assert white.text_content("#first").strip() == "« First" and white.text_content("#last").strip() == "Last »"
    white.click("#replay-moves li:last-child button")
    assert white.get_attribute("#replay", "data-step") == str(white.locator("#replay-moves li").count() - 1)
    shoot(white, screenshots, "replay")
    # 13: the dice check is a page, linked from the replay
    white.click("#replay-verify")
    white.wait_for_selector("#verdict")
    assert white.text_content("#seed").strip() and white.locator("#rolls tbody tr").count() >= 2
    shoot(white, screenshots, "verify")


def test_an_aborted_match_says_why_and_offers_no_rematch(site_server, new_page):
    base, _ = site_server
    white, black, match_id = start_match(site_server, new_page, length=3, names=("cat", "dan"))
    admin = make_admin(site_server, "admin_abort")
    staff = new_page()
    admin_action(staff, base, admin, f"/admin/games/match/?id__exact={match_id}", "abort_matches")
    for page in (white, black):
        page.wait_for_selector("#end-dialog:not([hidden])", timeout=15_000)
        assert page.text_content("#end-title") == "Match aborted"
        assert "aborted by an administrator" in page.text_content("#end-body")
        assert page.is_hidden("#rematch")
        assert "Aborted" in page.text_content("#moves") and "Wins 0" not in page.text_content("#moves")


def test_suspending_a_player_ends_his_match_for_both_and_closes_his_socket(site_server, new_page, screenshots):
    base, _ = site_server
    white, black, match_id = start_match(site_server, new_page, length=3, names=("eve", "fred"))
    before = white.evaluate("() => bg.state.match.white.rating")
    admin = make_admin(site_server, "admin_suspend")
    staff = new_page()
    admin_action(staff, base, admin, "/admin/games/player/?q=fred", "suspend_players")
    # the opponent is told: the match is won by forfeit, because of the suspension
    white.wait_for_selector("#end-dialog:not([hidden])", timeout=15_000)
    assert white.text_content("#end-title") == "You won the match by forfeit"
    body = white.text_content("#end-body")
    assert re.search(r"fred\d* was suspended by an administrator: the match is awarded to eve\d*\.", body), body
    assert "scores no points" in body and "backgammon" not in body
    assert "0 – 0" in white.text_content("#end-score")  # the score reached by play
    # 9: rating changes at the match's end, and the seats show the new rating
    assert re.search(r"eve\d* \d+\.\d \(\+\d", white.text_content("#end-ratings")), white.text_content("#end-ratings")
    after = white.evaluate("() => bg.state.match.white.rating")
    assert after > before
    assert str(round(after)) in white.text_content("#seat-bottom [data-name]")
    shoot(white, screenshots, "match-end")
    # the suspended player's tab stops saying "Your move": his socket is closed and he is told
    black.wait_for_function("() => document.body.dataset.connected === '0'")
    black.wait_for_selector("#banner:visible")
    assert "suspended" in black.text_content("#banner")


def test_favicon_and_page_weight(site_server, new_page):
    base, _ = site_server
    white, black, match_id = start_match(site_server, new_page, length=1, names=("gus", "hal"))
    assert white.evaluate("() => fetch('/favicon.ico').then(r => r.status)") == 200
    game_url = white.url
    for url in (f"{base}/", game_url, f"{base}/leaderboard/", f"{base}/accounts/login/"):
        total, sizes = own_bytes(new_page(), url)  # a fresh context each: nothing cached
        assert sizes, url  # the measurement saw the files
        assert total < PAGE_WEIGHT_LIMIT, (url, total, sizes)


CONTRAST_JS = """sel => {
  const el = document.querySelector(sel);
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 4).map(Number);
  let bg = null, node = el;
  while (node && node.nodeType === 1) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length < 4 || c[3] > 0) { bg = c; break; }
    node = node.parentElement;
  }
  bg = bg || [255, 255, 255];
  const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const a = lum(rgb(getComputedStyle(el).color)), b = lum(bg);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_settings_follow_the_player_to_another_browser(site_server, new_page, screenshots):
    base, dice = site_server
    white, black, match_id = start_match(site_server, new_page, length=3, names=("ivy", "jon"))
    black_name = black.text_content(".whoami").strip()
    # Black sets dark colours, home board on the left, White's numbering, no confirmation
    settings = new_page()
    settings.goto(f"{base}/accounts/login/?next=/settings/")
    settings.fill("input[name=username]", black_name)
    settings.fill("input[name=password]", "a long enough pass 123")
    settings.click("form button[type=submit]")
    settings.wait_for_url("**/settings/")
    settings.check("input[name=home][value=left]")
    settings.check("input[name=numbers][value=white]")
    settings.select_option("select[name=theme]", "dark")
    settings.uncheck("input[name=confirm]")
    settings.click("#settings-form button[type=submit]")
    settings.wait_for_selector(".message.success")
    assert settings.get_attribute("html", "data-theme") == "dark"
    for selector in (".settings h1", ".settings label", ".settings .hint", ".site-header a"):
        ratio = settings.evaluate(CONTRAST_JS, selector)
        assert ratio >= 4.5, (selector, ratio)
    shoot(settings, screenshots, "settings")
    settings.set_viewport_size(PHONE)  # the animation setting's long option fits the phone
    assert settings.evaluate(WIDER) == []
    settings.set_viewport_size(DESKTOP)
    # the other browser (Black's first one) picks them up on its next page load
    black.reload()
    black.wait_for_function("() => window.bg && bg.state.phase === 'move'")
    assert black.get_attribute("html", "data-theme") == "dark"
    assert black.evaluate(CONTRAST_JS, "#status-line") >= 4.5
    assert black.is_checked("#opt-flip")
    # White's numbering: Black sees point 24 where its own 1 is; the home board is on the left
    labels = black.eval_on_selector_all("#board text.label", "ts => ts.map(t => [t.textContent, t.getBoundingClientRect().x, t.getBoundingClientRect().y])")
    bottom = sorted((x, int(text)) for text, x, y in labels if y > 300)
    assert bottom[0][1] == 24 and bottom[-1][1] == 13, bottom  # Black's home (White's 19-24) at the bottom left
    # no confirmation: a completed play is sent at once
    click_play(white, game_state(white)["legal"][0])
    black.wait_for_selector('[data-act="roll"]:visible')
    black.click('[data-act="roll"]')
    black.wait_for_function("() => bg.state.phase === 'move' && bg.state.actor === 'black'")
    version = game_state(black)["version"]
    for step in game_state(black)["legal"][0]:
        black.click(f'#board [data-hit="{step["from"]}"]')
        black.click(f'#board [data-hit="{step["to"]}"]')
    black.wait_for_function(f"() => bg.state.version > {version} && bg.state.actor === 'white'")


def test_a_guest_plays_from_the_invite_link_then_signs_up_and_keeps_the_game(site_server, new_page):
    base, dice = site_server
    host, visitor = new_page(), new_page(PHONE)
    sign_up(host, base, "kim")
    match_id, invite = create_match(host, base, length=3, cube=True, private=True)
    script_dice(dice, match_id, [[3], [1]])
    visitor.goto(invite)
    visitor.click("#guest-button")
    visitor.wait_for_url(re.compile(r".*/games/\d+/$"))
    game_url = visitor.url
    visitor.wait_for_function("() => window.bg && bg.state.you === 'black'")
    assert visitor.text_content("#seat-bottom [data-name]").startswith("Guest ")
    host.wait_for_url(game_url)
    # the guest signs up from the game and comes back to it, as the same player
    visitor.click("#guest-signup")
    visitor.wait_for_selector("#guest-note")
    fill_sign_up(visitor, "lee1")
    visitor.wait_for_url(game_url)
    visitor.wait_for_function("() => window.bg && bg.state.you === 'black'")
    assert visitor.is_hidden("#guest-signup")


def test_quick_pairing_meets_a_player_or_offers_the_computer(site_server, new_page):
    base, _ = site_server
    ann, bob, cid = new_page(), new_page(PHONE), new_page()
    for page, name in ((ann, "qa"), (bob, "qb"), (cid, "qc")):
        sign_up(page, base, name)
    ann.fill("#play-now input[name=length]", "7")
    ann.click("#play-now button[type=submit]")
    ann.wait_for_url("**/play/now/**")
    ann.wait_for_selector("#seek-waited:has-text('s')")
    bob.fill("#play-now input[name=length]", "7")
    bob.click("#play-now button[type=submit]")
    bob.wait_for_url(re.compile(r".*/games/\d+/$"))
    ann.wait_for_url(bob.url, timeout=15_000)  # the polling page follows into the match
    # nobody else wants 9 points: the computer is offered after the chosen wait
    cid.fill("#play-now input[name=length]", "9")
    cid.click("#play-now button[type=submit]")
    cid.wait_for_url("**/play/now/**")
    cid.goto(f"{base}/play/now/?fallback=1")
    cid.wait_for_selector("#seek-computer:visible")
    cid.click("#seek-computer button[type=submit]")
    cid.wait_for_url(re.compile(r".*/games/\d+/$"))
    cid.wait_for_function("() => window.bg && bg.state.match && bg.state.match.length === 9")
    assert "house bot" in cid.text_content("#seat-top [data-name]")
