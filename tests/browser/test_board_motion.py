"""The board's movement in Chromium (issue 28): an opponent's checker slides (sampled half way,
it is between its points), the speed setting is honoured (off: no sprite, the final board at
once), a burst of held-back events and a reconnection end on the server's position, the
player's own board ends equal to a render with no animation, a tab in the background (no
animation frames) still shows the final board and the your-turn notice, a device asking for
reduced motion sees nothing slide, the replay moves one step forward, the dice roll by a
click and a bad drop slides back."""

import re

import pytest

from tests.browser.helpers import click_play, drag_checker, game_state, sign_up
from tests.browser.test_board_look import _set_setting
from tests.browser.test_site import shoot, start_match

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAME_SOCKET = re.compile(r".*/ws/games/\d+/.*")
OPENING = [{"from": 8, "to": 5}, {"from": 6, "to": 5}]  # White's 3-1

# The board on screen equals what a render with no animation draws (the same serialisation).
FINAL = """() => { const t = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  t.innerHTML = bg.boardMarkup(); return t.innerHTML === document.getElementById('board').innerHTML; }"""
SETTLED = "() => document.getElementById('board').dataset.animating !== '1' && !document.querySelector('.sprite')"

# The checker going 8 -> 5, sampled at the start and half way through its animation (paused
# there for the reading, then let go on): half way it is strictly between its two points.
SAMPLE_HALF_WAY = """() => { window.halfWay = null;
  const c = el => { const r = el.getBoundingClientRect(); return (r.left + r.right) / 2; };
  new MutationObserver(() => {
    const s = document.querySelector('.sprite.checker[data-via="8 5"]');
    const [a] = s ? s.getAnimations() : [];
    if (!a || window.halfWay) return;
    const was = a.currentTime;
    a.pause();
    a.currentTime = 0;
    const start = c(s);
    a.currentTime = a.effect.getComputedTiming().duration / 2;
    window.halfWay = { start, x: c(s), a: c(document.querySelector('#board [data-hit="8"]')),
                       b: c(document.querySelector('#board [data-hit="5"]')) };
    a.currentTime = was;
    a.play();
  }).observe(document.body, {childList: true, subtree: true}); }"""


def _assert_half_way(page):
    page.wait_for_function("() => window.halfWay")
    h = page.evaluate("() => window.halfWay")
    lo, hi = sorted((h["a"], h["b"]))
    margin = (hi - lo) * 0.15
    assert abs(h["start"] - h["a"]) < 2, h  # it starts on the 8-point
    assert lo + margin < h["x"] < hi - margin, h  # half way it is between the points, not on either


WATCH_SPRITES = """() => { window.spritesSeen = 0;
  new MutationObserver(() => { window.spritesSeen += document.querySelectorAll('.sprite').length; })
    .observe(document.body, {childList: true, subtree: true}); }"""


class Valve:
    """A page's game sockets, the server's frames held back while ``hold`` is set, then let
    through all at once (a burst); ``kill()`` closes the page's socket (it reconnects)."""

    def __init__(self, page):
        self.routes, self.held, self.hold = [], [], False
        page.route_web_socket(GAME_SOCKET, self._route)

    def _route(self, ws):
        server = ws.connect_to_server()
        server.on_message(lambda m: self.held.append((ws, m)) if self.hold else ws.send(m))
        self.routes.append(ws)

    def release(self):
        self.hold = False
        for ws, m in self.held:
            ws.send(m)
        self.held.clear()

    def kill(self):
        self.routes[-1].close()


def _spectator(base, new_page, game_url, name, animation):
    page = new_page()
    sign_up(page, base, name)
    _set_setting(page, animation=animation)
    valve = Valve(page)
    page.goto(game_url)
    page.wait_for_function("() => window.bg && bg.state.phase === 'move' && document.body.dataset.connected === '1'")
    return page, valve


def test_an_opponents_move_slides_and_ends_on_the_servers_position(site_server, new_page, screenshots):
    base, _ = site_server
    white, black, _ = start_match(site_server, new_page, length=3, names=("hana", "ivo"))
    slow, slow_valve = _spectator(base, new_page, white.url, "slowwatch", "slow")
    slow.evaluate(SAMPLE_HALF_WAY)
    still, _ = _spectator(base, new_page, white.url, "stillwatch", "off")
    still.evaluate(WATCH_SPRITES)
    white.evaluate(WATCH_SPRITES)
    version = game_state(white)["version"]
    click_play(white, OPENING)
    # the mover's own clicks slide the checker too, and his board ends as a plain render
    assert white.evaluate("() => window.spritesSeen") > 0
    white.wait_for_function(f"() => bg.state.version > {version}")
    white.wait_for_function(SETTLED)
    assert white.evaluate(FINAL)
    # slow: sampled half way, the checker is between its points; then the board is the server's
    _assert_half_way(slow)
    slow.screenshot(path=str(screenshots / "move-half-way-desktop.png"))
    slow.wait_for_function(SETTLED)
    assert slow.evaluate(FINAL)
    # off: no sprite ever, and the final board as soon as the event is in
    still.wait_for_function(f"() => bg.state.version > {version}")
    assert still.evaluate("() => window.spritesSeen") == 0
    assert still.evaluate(SETTLED) and still.evaluate(FINAL)
    assert slow.inner_html("#board") == still.inner_html("#board")
    # the opponent (normal speed: the default) ends on the same position, in his own view
    black.wait_for_function(f"() => bg.state.version > {version}")
    black.wait_for_function(SETTLED)
    assert black.evaluate(FINAL)
    assert game_state(black)["board"] == game_state(still)["board"]

    # a burst: events held back, then let through together; then a reconnection mid-way
    slow_valve.hold = True
    black.wait_for_selector('[data-act="roll"]:visible')
    black.click('[data-act="roll"]')
    black.wait_for_function("() => bg.state.phase === 'move' && bg.state.actor === 'black'")
    click_play(black, game_state(black)["legal"][0])
    white.wait_for_function("() => bg.state.actor === 'white' && bg.state.phase === 'turn'")
    slow.wait_for_timeout(300)  # let the held frames gather (not an assertion)
    assert slow_valve.held, "frames were held back"
    slow_valve.release()
    slow.wait_for_function("() => document.getElementById('board').dataset.animating === '1'")
    slow_valve.kill()
    server = game_state(white)
    slow.wait_for_function(f"() => bg.state.version === {server['version']} && document.body.dataset.connected === '1'")
    slow.wait_for_function(SETTLED)
    assert slow.evaluate(FINAL)
    assert game_state(slow)["board"] == server["board"]
    still.wait_for_function(f"() => bg.state.version === {server['version']}")
    assert slow.inner_html("#board") == still.inner_html("#board")


def test_a_background_tab_gets_the_final_board_and_the_turn_notice_and_reduced_motion_is_still(site_server, new_page):
    base, _ = site_server
    white, black, _ = start_match(site_server, new_page, length=3, names=("jade", "kim"))
    # Black's tab goes to the background: hidden, and no animation frames come (as in Chromium)
    black.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', {get: () => 'hidden', configurable: true});
      Object.defineProperty(document, 'hidden', {get: () => true, configurable: true});
      window.requestAnimationFrame = () => 0;
      document.dispatchEvent(new Event('visibilitychange')); }""")
    # White's device asks for reduced motion: with the default speed ("auto") nothing slides
    white.emulate_media(reduced_motion="reduce")
    white.evaluate(WATCH_SPRITES)
    version = game_state(white)["version"]
    click_play(white, OPENING)
    assert white.evaluate("() => window.spritesSeen") == 0
    black.wait_for_function("() => document.title.startsWith('● Your turn')")
    assert "favicon-turn" in black.get_attribute("#favicon", "href")
    black.wait_for_function(f"() => bg.state.version > {version}")
    assert black.evaluate(SETTLED) and black.evaluate(FINAL)
    assert game_state(black)["board"][5] == 2


def test_the_replay_moves_one_step_forward_and_jumps_elsewhere(site_server, new_page):
    base, _ = site_server
    white, black, _ = start_match(site_server, new_page, length=1, names=("lea", "max"))
    game = game_state(white)["game"]
    click_play(white, OPENING)
    black.wait_for_function("() => bg.state.actor === 'black'")  # Black resigns on his turn, White accepts
    black.on("dialog", lambda dialog: dialog.accept())
    black.click("#resign-box summary")
    black.click('[data-resign="1"]')
    white.wait_for_selector('[data-act="resign_accept"]:visible')
    white.click('[data-act="resign_accept"]')
    white.wait_for_function("() => bg.state.status === 'finished'")
    _set_setting(white, animation="slow")
    white.goto(f"{base}/games/{game}/replay/")
    white.wait_for_selector("#replay-moves li")
    steps = white.eval_on_selector_all("#replay-moves li button", "bs => bs.map(b => b.textContent)")
    move = next(k for k, text in enumerate(steps) if "8/5 6/5" in text)
    white.click(f'#replay-moves li[data-step="{move - 1}"] button')
    white.evaluate(SAMPLE_HALF_WAY)
    white.click("#next")
    _assert_half_way(white)
    white.wait_for_function(SETTLED)
    moved = white.inner_html("#board")
    white.click("#first")
    white.click(f'#replay-moves li[data-step="{move}"] button')  # a jump: no movement, the same board
    assert white.inner_html("#board") == moved
    assert white.get_attribute("#replay", "data-step") == str(move)


def test_rolling_by_clicking_the_dice_and_a_bad_drop_slides_back(site_server, new_page, screenshots):
    white, black, _ = start_match(site_server, new_page, length=3, names=("pia", "quin"), rolls=([3], [1], [4, 2]))
    click_play(white, OPENING)
    # Black's turn: the dice to throw are drawn in his half; a click on them rolls
    black.wait_for_selector("#board .die.roll-me")
    assert white.locator("#board .die.roll-me").count() == 0, "only the player on roll gets them"
    shoot(black, screenshots, "roll-by-hand")
    box = black.locator("#board .die.roll-me").first.bounding_box()
    black.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # a person clicks there
    black.wait_for_function("() => bg.state.phase === 'move' && bg.state.actor === 'black'")
    assert game_state(black)["legal"]
    # a checker dropped where it cannot go slides back (an animation), and nothing is played
    black.wait_for_function(SETTLED)
    black.evaluate("""() => { window.returned = 0; new MutationObserver(() => {
      if (document.querySelector('#drag-layer .returning')) window.returned += 1; })
      .observe(document.getElementById('drag-layer'), {childList: true, subtree: true, attributes: true}); }""")
    drag_checker(black, 12, 15)  # with 4-2, 15 is no target of the 12-point
    black.wait_for_function("() => window.returned > 0")
    black.wait_for_function("() => !document.querySelector('#drag-layer *')")
    assert black.evaluate("() => bg.state.partial.length") == 0
