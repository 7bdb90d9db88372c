"""Whose turn, as a player walking the site sees it (issue 28's rule: input is never blocked
longer than the animation of the player's own play):

- the header reads "Your turn" and a count only when a match waits for the player (else "Your
  matches", never "Your turn 0"), and on a game page the count follows that game live;
- the game page's "Next match" shows only when another match waits and this one can be left:
  never while the opponent moves in a live match, and once the match is over;
- the end of a game held on the game page gives way at once to the next game when that game
  waits for the player (a long hold here: he would wait minutes for it);
- the chouette's role badges keep their colours in the dark theme (the BOX badge lost its own
  background to the panels' dark surface).

Screenshots of each at a phone's and a laptop's size, light and dark, go to artifacts/screenshots/."""

import re

import pytest

from tests.browser.helpers import click_play, create_match, game_state, join_by_invite, script_dice, sign_up
from tests.browser.test_board_motion import SETTLED
from tests.browser.test_chouette import _open_table, _start
from tests.browser.test_game_end import PLAQUE
from tests.browser.test_site import CONTRAST_JS
from tests.browser.dice import scripted_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 850}}
HEADER = "() => document.querySelector('#your-turn summary').innerText.replace(/\\s+/g, ' ').trim()"
READY = "() => window.bg && bg.state.phase === 'move' && document.body.dataset.connected === '1'"


def _shots(page, screenshots, name):
    """The page at a phone's and a laptop's size, in both themes (a picture, not an assertion)."""
    size = page.viewport_size
    for theme in ("light", "dark"):
        page.evaluate("t => { document.documentElement.dataset.theme = t; }", theme)
        for label, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.wait_for_timeout(50)  # one frame for the layout
            page.screenshot(path=str(screenshots / f"{name}-{theme}-{label}.png"))
    page.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")
    page.set_viewport_size(size)


def _header(page) -> str:
    return page.evaluate(HEADER)


def test_the_header_and_next_match_follow_whose_turn_it_is(site_server, new_page, screenshots):
    base, dice = site_server
    carol, white, black = new_page(), new_page(), new_page()
    sign_up(carol, base, "hdcarol")
    sign_up(white, base, "hdwhite")
    sign_up(black, base, "hdblack")
    # Nothing waits for a new player: "Your matches", no count (it read "Your turn 0")
    assert _header(white) == "Your matches"
    assert white.is_hidden("#your-turn-count")
    _shots(white, screenshots, "header-none")
    # Black's other match, waiting for him: Carol opens it, Black joins and wins the opening roll
    other_id, other_invite = create_match(carol, base, length=1)
    script_dice(dice, other_id, [[1], [6]])
    join_by_invite(black, other_invite)
    black.wait_for_function("() => window.bg && bg.state.actor === 'black' && bg.state.you === 'black'")
    other_game = game_state(black)["game"]
    # The match of this test: White opens with 3-1
    match_id, invite = create_match(white, base, length=1)
    script_dice(dice, match_id, [[3], [1]])
    join_by_invite(black, invite)
    white.wait_for_url(re.compile(r".*/games/\d+/$"))
    for page in (white, black):
        page.wait_for_function(READY)
    game = game_state(white)["game"]
    assert _header(white) == "Your turn 1", "this game waits for White"
    assert _header(black) == "Your turn 1", "Carol's match waits for Black"
    # White moves: no "Next match" for Black meanwhile (a live match: his opponent is playing)
    assert black.is_hidden("#next-match") and white.is_hidden("#next-match")
    _shots(black, screenshots, "game-opponent-moving")
    version = game_state(black)["version"]
    click_play(white, game_state(white)["legal"][0])
    black.wait_for_function(f"() => bg.state.version > {version} && bg.state.actor === 'black'")
    # the counts follow the game: White has nothing waiting, Black two matches
    white.wait_for_function(f"h => ({HEADER})() === h", arg="Your matches")
    black.wait_for_function(f"h => ({HEADER})() === h", arg="Your turn 2")
    assert black.is_hidden("#next-match"), "Black's turn here: he stays"
    assert white.is_hidden("#next-match"), "the opponent moves in a live match: White stays"
    _shots(white, screenshots, "game-after-my-move")
    # Black resigns the 1-point match: it is over, and Carol's match waits: "Next match" takes him there
    black.on("dialog", lambda dialog: dialog.accept())
    black.click("#resign-box summary")
    black.click('[data-resign="1"]')
    white.wait_for_selector('[data-act="resign_accept"]:visible')
    white.click('[data-act="resign_accept"]')
    for page in (white, black):
        page.wait_for_function("() => bg.state.match.status === 'finished'")
    black.wait_for_selector("#next-match:not([hidden])")
    assert white.is_hidden("#next-match"), "no match waits for White"
    assert _header(black) == "Your turn 1"
    black.click("#end-close")
    _shots(black, screenshots, "game-over-next-match")
    black.click("#next-match")
    black.wait_for_url(f"**/games/{other_game}/")
    assert game_state(white)["game"] == game


@pytest.fixture
def held_site(tmp_path):
    """A site whose game ends stay on screen five minutes (unless the next game needs the player)."""
    with scripted_site(tmp_path, GAMES_NEXT_GAME_DELAY="300") as found:
        yield found


def test_the_next_game_waiting_for_the_player_is_not_held_back_by_the_end(held_site, new_page, screenshots):
    site, dice = held_site
    base = site.url()
    white, black = new_page(), new_page()
    sign_up(white, base, "heldw")
    sign_up(black, base, "heldb")
    match_id, invite = create_match(white, base, length=3, cube=True)
    script_dice(dice, match_id, [[3], [1]])
    script_dice(dice, match_id, [[1], [6]], game=2)  # Black opens the next game
    join_by_invite(black, invite)
    white.wait_for_url(re.compile(r".*/games/\d+/$"))
    for page in (white, black):
        page.wait_for_function(READY)
    first = game_state(white)["game"]
    click_play(white, game_state(white)["legal"][0])
    # Black resigns a single game on his turn, White accepts: game 1 is over
    black.on("dialog", lambda dialog: dialog.accept())
    black.wait_for_function("() => bg.state.actor === 'black'")
    black.click("#resign-box summary")
    black.click('[data-resign="1"]')
    white.wait_for_selector('[data-act="resign_accept"]:visible')
    white.click('[data-act="resign_accept"]')
    # White: the end stays on his board (its plaque, "Next game"), the next game not his to open
    white.wait_for_selector('[data-act="next"]:visible')
    white.wait_for_function(SETTLED)
    assert white.evaluate(PLAQUE) is not None and game_state(white)["game"] == first
    # Black: the next game waits for him, so it is on his board at once, and he plays it
    black.wait_for_function(f"() => bg.state.game !== {first} && bg.state.phase === 'move' && bg.state.actor === 'black'")
    assert black.is_hidden('[data-act="next"]')
    black.wait_for_function("() => document.getElementById('board').dataset.animating !== '1'")
    assert black.evaluate(PLAQUE) is None
    assert white.is_visible('[data-act="next"]') and game_state(white)["game"] == first, "White still has the end in view"
    _shots(white, screenshots, "game-end-held")
    version = game_state(black)["version"]
    click_play(black, game_state(black)["legal"][0])
    black.wait_for_function(f"() => bg.state.version > {version} && bg.state.actor === 'white'")
    # now the next game waits for White: the end gives way on his board too, without "Next game"
    white.wait_for_function(f"() => bg.state.game !== {first} && bg.state.version === {game_state(black)['version']}")
    assert white.is_hidden('[data-act="next"]') and game_state(white)["actor"] == "white"
    assert not site.tracebacks(), site.logs()


def test_the_chouette_role_badges_keep_their_colours_in_the_dark(site_server, browser, screenshots):
    base, dice = site_server
    contexts = [browser.new_context(viewport=SIZES["laptop"]) for _ in range(3)]
    try:
        box, captain, crew = people = [context.new_page() for context in contexts]
        chouette_id = _open_table(base, people)
        _start(dice, chouette_id, people, [[6], [5], [4]], {1: [[1], [3]]})
        for theme in ("light", "dark"):
            box.evaluate("t => { document.documentElement.dataset.theme = t; }", theme)
            for role in ("box", "captain", "crew"):
                badge = f"#line .badge.{role}"
                ratio = box.evaluate(CONTRAST_JS, badge)
                assert ratio >= 4.5, (theme, role, round(ratio, 2))
                # a badge: its own background, not the panel's under it
                own, under = box.eval_on_selector(badge, """b => [getComputedStyle(b).backgroundColor,
                    getComputedStyle(b.closest('section.box')).backgroundColor]""")
                assert own != under, (theme, role, own)
            for selector in ("#cube-row li", "#cube-row li .cube-face", "#line li .who", "#waiting-for"):
                ratio = box.evaluate(CONTRAST_JS, selector)
                assert ratio >= 4.5, (theme, selector, round(ratio, 2))
        box.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")
        _shots(box, screenshots, "chouette-badges")
    finally:
        for context in contexts:
            context.close()
