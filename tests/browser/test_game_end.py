"""A game's end on the board (issue 28): the result comes down onto the board for the players
and a spectator (with animation off it is there at once, nothing moves), its sound plays as it
lands, the board then equals a render with no animation; the next game starts from a clean
board; a reload of the finished game and the replay's jump show the result at once, and the
replay's step forward brings it down; a match's end dialog opens once the result has landed."""

import pytest

from tests.browser.helpers import click_play, game_state, script_dice
from tests.browser.test_board_motion import FINAL, OPENING, SETTLED, WATCH_SPRITES, _spectator
from tests.browser.test_board_sound import SPY
from tests.browser.test_site import shoot, start_match

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Each result sprite seen, and for each sound the page played: whether a result sprite was
# on screen with its animation done (the sound came as the plaque landed, not before).
WATCH_RESULT = """() => { window.resultSprites = 0; window.landed = [];
  new MutationObserver(() => { window.resultSprites += document.querySelectorAll('.sprite.result').length; })
    .observe(document.body, {childList: true, subtree: true});
  addEventListener('bg-sound', e => { const s = document.querySelector('.sprite.result');
    window.landed.push([e.detail, !!s && s.getAnimations().every(a => a.playState === 'finished')]); }); }"""
PLAQUE = "() => { const r = document.querySelector('#board .result'); return r && [...r.querySelectorAll('text')].map(t => t.textContent); }"


def _resign_single(white, black):
    """Black offers a single game on his turn, White accepts: the game ends, 1 point to White."""
    black.wait_for_function("() => bg.state.actor === 'black'")
    black.on("dialog", lambda dialog: dialog.accept())
    black.click("#resign-box summary")
    black.click('[data-resign="1"]')
    white.wait_for_selector('[data-act="resign_accept"]:visible')
    white.click('[data-act="resign_accept"]')


def test_the_result_comes_down_onto_the_board_and_the_next_game_starts_clean(site_server, new_page, screenshots):
    base, _ = site_server
    white, black, match_id = start_match(site_server, new_page, length=3, names=("tia", "uma"))
    script_dice(site_server[1], match_id, [[1], [6]], game=2)  # Black opens game 2
    watcher, _ = _spectator(base, new_page, white.url, "endwatch", "slow")
    still, _ = _spectator(base, new_page, white.url, "endstill", "off")
    click_play(white, OPENING)
    white.evaluate(SPY)  # White has clicked: his sounds play
    for page in (white, watcher, still):
        page.evaluate(WATCH_RESULT)
    still.evaluate(WATCH_SPRITES)
    game = game_state(white)["game"]
    _resign_single(white, black)
    names = [white.evaluate("() => bg.state.match.white.name")]
    # game 2 waits for Black: his board goes on to it at once (issue 28); the others keep the end
    black.wait_for_function(f"() => bg.state.game !== {game} && bg.state.actor === 'black'")
    for page in (white, watcher, still):
        page.wait_for_function("() => bg.state.status === 'finished'")
        page.wait_for_function(SETTLED)
        assert page.evaluate(PLAQUE) == [f"{names[0]} wins", "1 point · single"]
        assert page.evaluate(FINAL), "the board with the result equals a render with no animation"
    # it came down for the players and the spectator; with animation off, nothing moved
    assert white.evaluate("() => window.resultSprites") > 0 and watcher.evaluate("() => window.resultSprites") > 0
    assert still.evaluate("() => window.resultSprites") == 0 and still.evaluate("() => window.spritesSeen") == 0
    # White heard the game's end as the plaque landed
    assert ["gameEnd", True] in white.evaluate("() => window.landed"), white.evaluate("() => window.landed")
    shoot(watcher, screenshots, "game-end-result")
    assert game_state(white)["board"] == game_state(still)["board"], "the final position stays under the result"
    # the next game: a clean board (no result, no last move marked), on the same page
    white.click('[data-act="next"]')
    white.wait_for_function(f"() => bg.state.game !== {game} && bg.state.status === 'playing'")
    white.wait_for_function(SETTLED)
    assert white.evaluate(PLAQUE) is None
    assert white.locator("#board .last-from, #board .last-to").count() == 0
    assert white.evaluate(FINAL)
    assert game_state(white)["board"][6] == 5 and game_state(white)["board"][1] == -2, "the starting position"


def test_the_replay_brings_the_result_down_and_a_jump_shows_it(site_server, new_page):
    base, _ = site_server
    white, black, _ = start_match(site_server, new_page, length=1, names=("vic", "wes"))
    game = game_state(white)["game"]
    click_play(white, OPENING)
    _resign_single(white, black)
    white.wait_for_function("() => bg.state.status === 'finished'")
    # the match is over: its dialog opens once the result has landed on the board
    white.wait_for_selector("#end-dialog:not([hidden])")
    assert white.evaluate(SETTLED) and white.evaluate(PLAQUE) is not None
    # a reload (the finished game's snapshot): the result at once, nothing moves
    white.reload()
    white.evaluate(WATCH_SPRITES)
    white.wait_for_function("() => window.bg && document.body.dataset.connected === '1'")
    assert white.evaluate("() => bg.state.game") == game
    assert white.evaluate(PLAQUE)[1] == "1 point · single"
    assert white.evaluate("() => window.spritesSeen") == 0 and white.evaluate(FINAL)
    white.goto(f"{base}/games/{game}/replay/")
    white.wait_for_selector("#replay-moves li")
    white.click("#last")  # a jump: the result at once
    assert white.evaluate(PLAQUE)[1] == "1 point · single"
    assert white.locator(".sprite").count() == 0
    white.click("#prev")
    assert white.evaluate(PLAQUE) is None
    white.evaluate(WATCH_RESULT)
    white.click("#next")  # one step forward: it comes down
    white.wait_for_function("() => window.resultSprites > 0")
    white.wait_for_function(SETTLED)
    assert white.evaluate(PLAQUE)[1] == "1 point · single"
