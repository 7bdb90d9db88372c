"""What a person does in the browser, as small functions the scenarios share."""

import itertools
import re

from tests.browser.dice import set_script

_names = itertools.count(1)


def sign_up(page, base, prefix="player"):
    """Sign up a fresh account through the form; returns its username."""
    name = f"{prefix}{next(_names)}"
    page.goto(f"{base}/accounts/signup/")
    fill_sign_up(page, name)
    page.wait_for_url(f"{base}/")
    return name


def fill_sign_up(page, name):
    """Fill and send the sign-up form the page shows (the password every test account uses)."""
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", "a long enough pass 123")
    page.fill("input[name=password2]", "a long enough pass 123")
    page.click("main form button[type=submit], main form input[type=submit]")


def create_match(page, base, *, length=1, cube=None, private=True):
    """Fill the lobby's new-match form; returns (match id, invite link)."""
    page.goto(f"{base}/")
    page.fill("input[name=length]", str(length))
    if length == 1:  # the form offers no cube for a 1-point match
        assert page.is_disabled("input[name=cube]") and not page.is_checked("input[name=cube]")
    elif cube is not None:
        page.set_checked("input[name=cube]", cube)
    page.set_checked("input[name=private]", private)
    page.click("#new-match button[type=submit]")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match_id = int(re.search(r"/matches/(\d+)/", page.url).group(1))
    return match_id, page.input_value("#invite-link")


def join_by_invite(page, invite):
    page.goto(invite)
    page.click("#join-button")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))


def script_dice(script_path, match_id, rolls, game=1):
    set_script(script_path, match_id, game, rolls)


def game_state(page):
    """The page's client state (exposed as window.bg for tests and debugging)."""
    return page.evaluate("() => ({version: bg.state.version, phase: bg.state.phase, actor: bg.state.actor, "
                         "you: bg.state.you, legal: bg.state.legalMoves, board: bg.state.board, game: bg.state.game, "
                         "whiteBar: bg.state.whiteBar, blackBar: bg.state.blackBar, whiteOff: bg.state.whiteOff, "
                         "blackOff: bg.state.blackOff, status: bg.state.status})")


def wait_version(page, version, timeout=10_000):
    page.wait_for_function(f"() => window.bg && bg.state.version >= {version}", timeout=timeout)


def click_steps(page, steps):
    """Make ``steps`` on the board by clicking: each step's checker, then its highlighted target."""
    for step in steps:
        page.click(f'#board [data-hit="{step["from"]}"]')
        page.wait_for_selector(f'#board .target[data-target="{step["to"]}"]')
        page.click(f'#board [data-hit="{step["to"]}"]')


def click_play(page, play):
    """Play ``play`` by clicking each step's checker, then its highlighted target; then Confirm."""
    click_steps(page, play)
    page.click('[data-act="confirm"]:not([disabled])')


def drag_checker(page, source, target):
    """Drag the checker on point ``source`` to point ``target`` with the mouse."""
    def centre(point):
        box = page.locator(f'#board [data-hit="{point}"]').bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(*centre(source))
    page.mouse.down()
    page.mouse.move(*centre(target), steps=8)
    page.mouse.up()
