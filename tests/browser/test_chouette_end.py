"""A chouette game's end in the browser (issue 28): the box doubles, both members drop, and the
result is marked on the board as on the game page (a plaque: "Game over", the box's points and
whether it holds the box). The captain (animation on) sees it come down and hears the game's
end as it lands, then the end dialog; a watcher with animation off has it at once, and again
after a reload; the box, sounds off, hears nothing. Each sound is the game page's: the
captain's own steps as he makes them, the team's checkers as they land, the cube, your turn.
Closing the dialog shows the next game, which has started underneath. The player the next game
waits for (its new captain, the team having won its opening roll) is never held: the end gives
way on his board at once and he plays (issue 28: input is never blocked longer than the
animation of the player's own play)."""

import re

import pytest

from tests.browser.conftest import DESKTOP
from tests.browser.dice import scripted_site, set_chouette_script
from tests.browser.helpers import click_steps, sign_up
from tests.browser.test_board_look import _set_setting
from tests.browser.test_board_motion import SETTLED, WATCH_SPRITES
from tests.browser.test_board_sound import LANDINGS, SPY
from tests.browser.test_chouette import _click_and_wait, _open_table, _play_on_board, _start, _version
from tests.browser.test_game_end import PLAQUE, WATCH_RESULT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The team wins the opening 3-1 (box 1, team 3).
GAME_1 = [[1], [3], [6, 4], [5, 2], [4, 3], [6, 1]]
# The team wins the next game's opening 5-2 (box 2, team 5): its new captain plays first.
GAME_2 = [[2], [5], [6, 4], [5, 3]]
HELD = "n => document.getElementById('chouette').dataset.held === String(n)"


@pytest.fixture
def end_site(tmp_path):
    # the end stays on the board a long while (closing its dialog shows the next game sooner)
    with scripted_site(tmp_path, workers=1, GAMES_NEXT_GAME_DELAY="300") as found:
        yield found


@pytest.fixture
def four(browser):
    """The box, the captain and the crew member to be, and a watcher: each in his own context."""
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(4)]
    for context in contexts:
        context.set_default_timeout(20_000)
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def _heard(page):
    return [x for x in page.evaluate("() => window.heard") if x not in ("yourTurn", "theirTurn")]


def test_a_chouette_game_ends_with_its_result_on_the_board_and_its_sounds(end_site, four):
    site, dice = end_site
    base = site.url()
    box, captain, crew, watcher = four
    chouette_id = _open_table(base, [box, captain, crew])
    _set_setting(box, sound=False)
    _set_setting(captain, animation="normal")
    sign_up(watcher, base, "chwatch")
    _set_setting(watcher, animation="off")
    for page in (box, captain):
        page.reload()
    watcher.goto(f"{base}/chouettes/{chouette_id}/")
    for page in (box, captain, crew, watcher):
        page.wait_for_function("() => window.ch && window.ch.st")
        page.evaluate(SPY)
        page.click("#line")  # a gesture: from now on the page may sound
    _start(dice, chouette_id, [box, captain, crew], [[6], [5], [4]], {1: GAME_1, 2: GAME_2})
    watcher.wait_for_function("() => window.ch.st.game && window.ch.st.game.phase === 'move'")
    for page in (captain, watcher):
        page.evaluate(WATCH_RESULT)
        page.evaluate(WATCH_SPRITES)

    # The captain plays the opening 3-1 on the board: each step heard as he makes it; the crew
    # member sees it move and hears each checker as it lands; the watcher, animation off, one sound.
    crew.evaluate(LANDINGS)
    # the crew member's board has shown the game's start (a page more than a few plans behind
    # jumps to the end and sounds each plan once: under a loaded CI run the opening could still
    # be moving there when the captain's play came, and the play was heard as one sound)
    crew.wait_for_function(SETTLED)
    click_steps(captain, [{"from": 17, "to": 20}, {"from": 19, "to": 20}])
    assert captain.evaluate("() => window.heard.filter(x => x === 'move').length") == 2
    _click_and_wait(captain, captain.locator("#play-confirm:not([disabled])"))
    crew.wait_for_function("() => window.landings.filter(l => l.name === 'move').length >= 2")
    assert all(x["landed"] for x in crew.evaluate("() => window.landings") if x["name"] == "move")
    watcher.wait_for_function("() => window.ch.st.game.lastPlay.length === 2")
    watcher.wait_for_function("() => window.heard.includes('move')")
    assert _heard(watcher) == ["move"], _heard(watcher)
    final = watcher.evaluate("() => window.ch.st.game.position.board")

    # The box doubles both cubes (the cube heard), both members drop: the game is over.
    box.wait_for_selector("#actions button:has-text('Double all')")
    _click_and_wait(box, box.locator("#actions button", has_text="Double all"))
    watcher.wait_for_function("() => window.heard.includes('cube')")
    crew.wait_for_function("() => window.landings.some(l => l.name === 'cube' && l.landed)")
    crew.wait_for_function("() => window.heard.includes('yourTurn')")  # his answer is asked: his turn's chime
    assert "yourTurn" not in watcher.evaluate("() => window.heard"), "a watcher has no turn"
    for page in (captain, crew):
        page.wait_for_selector("#actions button:has-text('Drop your cube')")
        _click_and_wait(page, page.locator("#actions button", has_text="Drop your cube"))

    # The next game waits at once for its captain (the crew member: the box held, the captain
    # went to the end of the line): the end gives way on his board, with no dialog over it.
    crew.wait_for_function("() => window.ch.st.game && window.ch.st.game.number === 2")
    assert crew.evaluate("() => window.ch.st.game.captain === window.ch.you && window.ch.st.game.dice.join() === '5,2'")
    crew.wait_for_function(HELD, arg="")
    assert crew.is_hidden("#end-dialog") and crew.evaluate(PLAQUE) is None

    # The end: held on every other board with its plaque, the next game going on underneath.
    plaque = ["Game over", "Box +2 · holds the box"]
    for page in (box, captain, watcher):
        page.wait_for_function("() => window.ch.st.session.gamesPlayed >= 1 && window.ch.st.game && window.ch.st.game.number === 2")
        page.wait_for_function(HELD, arg=1)
        page.wait_for_function(SETTLED)
        assert page.evaluate(PLAQUE) == plaque
        page.wait_for_selector("#end-dialog:not([hidden])")
        assert "Scores:" in page.text_content("#end-lines")
    # The new captain plays his opening 5-2 on the board at once, the end still held for the
    # others; then the box is on roll: the end gives way on his board too, its dialog closed.
    crew.wait_for_function("() => document.getElementById('board').dataset.animating !== '1'")
    _play_on_board(crew)
    box.wait_for_function("() => window.ch.st.game.onRoll === 'box'")
    box.wait_for_function(HELD, arg="")
    assert box.is_hidden("#end-dialog") and box.evaluate(PLAQUE) is None
    assert captain.evaluate(HELD, 1) and watcher.evaluate(HELD, 1)
    # the captain saw it come down and heard the end as it landed; the watcher had it at once
    assert captain.evaluate("() => window.resultSprites") > 0
    assert ["gameEnd", True] in captain.evaluate("() => window.landed"), captain.evaluate("() => window.landed")
    assert watcher.evaluate("() => window.resultSprites") == 0 and watcher.evaluate("() => window.spritesSeen") == 0
    assert "gameEnd" in _heard(watcher)
    # the final position stays under the result (not the next game's start)
    drawn = "() => [...document.querySelectorAll('#board .checker')].length"
    assert watcher.evaluate(drawn) == 30
    assert watcher.evaluate("() => window.ch.st.game.position.board") != final, "the next game has its own position"
    assert watcher.evaluate("() => window.ch.held.pos.board") == final, "the final position stays under the result"
    # the box had sounds off: nothing played, though he clicked
    assert box.evaluate("() => window.soundStarts") == 0 and box.evaluate("() => window.heard") == []
    assert captain.evaluate("() => window.soundStarts") > 0

    # A reload shows the end at once (the watcher: no animation), with its dialog.
    watcher.reload()
    watcher.wait_for_function(HELD, arg=1)
    assert watcher.evaluate(PLAQUE) == plaque
    watcher.wait_for_selector("#end-dialog:not([hidden])")
    # Closing the dialog shows the next game.
    captain.click("#end-close")
    captain.wait_for_function("() => document.getElementById('chouette').dataset.held === ''")
    assert captain.evaluate(PLAQUE) is None
    assert re.search(r"Game 2", captain.text_content("#status-line"))
    assert _version(captain) == _version(box)
    assert not site.tracebacks(), site.logs()
