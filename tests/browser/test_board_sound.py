"""The board's sounds in Chromium (issue 28), the audio API spied on: a move, a roll and a
hit are heard by both players (the sound's start calls are made), each as its checker lands
(the hit as the hit checker reaches the bar), with animation off one sound per event, nothing
plays before the first gesture, and a watcher with sounds off hears nothing. The replay sounds
the same way as it steps through a game."""

import pytest

from tests.browser.helpers import click_play, game_state, script_dice, sign_up, wait_version
from tests.browser.test_board_look import _set_setting
from tests.browser.test_board_motion import SETTLED, _spectator
from tests.browser.test_site import start_match

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Counts every start() of a sound source and lists the sounds the page played, in order.
SPY = """() => { window.soundStarts = 0; window.heard = [];
  for (const P of [AudioBufferSourceNode.prototype, OscillatorNode.prototype]) {
    const start = P.start;
    P.start = function (...args) { window.soundStarts += 1; return start.apply(this, args); };
  }
  addEventListener('bg-sound', e => window.heard.push(e.detail)); }"""


# For each sound: the sprites on screen then, and whether their animation had finished (a sound
# heard as its checker lands comes when its sprite has arrived, not when the event came).
LANDINGS = """() => { window.landings = [];
  addEventListener('bg-sound', e => { const s = [...document.querySelectorAll('.sprite')];
    window.landings.push({ name: e.detail, via: s.map(x => x.dataset.via), landed: s.length > 0 &&
      s.every(x => x.getAnimations().every(a => a.playState === 'finished')) }); }); }"""


def _heard(page):
    return page.evaluate("() => window.heard")


def test_moves_rolls_and_hits_are_heard_and_sound_off_is_silent(site_server, new_page):
    base, _ = site_server
    white, black, _ = start_match(site_server, new_page, length=3, names=("nia", "oto"), rolls=([3], [1], [4, 2]))
    quiet = new_page()
    sign_up(quiet, base, "quietwatch")
    quiet.goto(white.url)
    quiet.wait_for_function("() => window.bg && bg.state.phase === 'move' && document.body.dataset.connected === '1'")
    # a watcher with animation off and sounds on: one sound per event, not one per checker
    still, _ = _spectator(base, new_page, white.url, "stillhear", "off")
    for page in (white, black, quiet, still):
        page.evaluate(SPY)
    still.click("details.options summary")  # his gesture: he hears from now on
    # before any gesture Black hears nothing, even when White moves
    version = game_state(white)["version"]
    quiet.click("details.options summary")  # a gesture, and sounds off
    quiet.click("#opt-sound")
    assert not quiet.is_checked("#opt-sound")
    click_play(white, [{"from": 13, "to": 10}, {"from": 6, "to": 5}])  # blots on 10 and 5
    wait_version(black, version + 1)
    assert black.evaluate("() => window.soundStarts") == 0 and _heard(black) == []
    assert "move" in _heard(white) and white.evaluate("() => window.soundStarts") > 0
    # Black's first gesture is his roll: from now on he hears
    black.wait_for_selector('[data-act="roll"]:visible')
    black.click('[data-act="roll"]')
    black.wait_for_function("() => window.heard.includes('roll')")
    white.wait_for_function("() => window.heard.includes('roll')")
    black.wait_for_function("() => bg.state.phase === 'move' && bg.state.actor === 'black'")
    white.evaluate(LANDINGS)
    click_play(black, [{"from": 1, "to": 5}, {"from": 1, "to": 3}])  # 1/5* hits White's blot
    try:
        white.wait_for_function("() => window.heard.includes('hit')")
    except Exception:
        print(_heard(white), _heard(black), game_state(white)["board"], game_state(black)["version"], game_state(white)["version"])
        raise
    assert black.evaluate("() => window.soundStarts") > 0
    # White saw it move (normal speed): each sound came as its checker landed, the hit as the
    # hit checker reached the bar
    white.wait_for_function("() => window.landings.filter(l => l.name !== 'yourTurn').length >= 3")
    landings = [x for x in white.evaluate("() => window.landings") if x["name"] != "yourTurn"]
    assert [x["name"] for x in landings] == ["move", "hit", "move"], landings
    assert all(x["landed"] for x in landings), landings
    assert landings[1]["via"] == ["5 bar"], "the hit sound with the hit checker on the bar"
    # animation off: White's two steps were one sound, Black's roll one, his hit and step one
    wait_version(still, game_state(white)["version"])
    assert [x for x in _heard(still) if x not in ("yourTurn", "theirTurn")] == ["move", "roll", "hit"], _heard(still)
    # the watcher with sounds off heard none of it
    wait_version(quiet, game_state(white)["version"])
    assert quiet.evaluate("() => window.soundStarts") == 0 and _heard(quiet) == []


# The master volume: the first gain node the page makes (sound.mjs's master) is recorded.
GAINS = """() => { window.gains = []; const make = BaseAudioContext.prototype.createGain;
  BaseAudioContext.prototype.createGain = function (...args) { const g = make.apply(this, args); window.gains.push(g); return g; }; }"""


def _replay_page(new_page, base, game, name, volume=None, **settings):
    page = new_page()
    sign_up(page, base, name)
    if settings:
        _set_setting(page, **settings)
    if volume is not None:
        page.evaluate("v => localStorage.setItem('bg-volume', String(v))", volume)
    page.goto(f"{base}/games/{game}/replay/")
    page.wait_for_selector("#replay-moves li")
    for script in (SPY, LANDINGS, GAINS):
        page.evaluate(script)
    return page


def _step_to(page, k):
    """Show step ``k`` by a jump (no movement, no sound), from the list."""
    page.evaluate("k => document.querySelector(`#replay-moves li[data-step=\"${k}\"] button`).click()", k)
    page.wait_for_function("k => document.getElementById('replay').dataset.step === String(k)", arg=k)


def test_the_replay_sounds_as_it_steps_through_a_game(site_server, new_page):
    """The replay plays the game's sounds as it steps forward: the checkers as they land (the hit
    on the bar), the dice; at the device's volume; nothing before the first click or key (a
    step made by a script is silent), one sound per step with animation off, none with sound off."""
    base, _ = site_server
    white, black, match_id = start_match(site_server, new_page, length=3, names=("rae", "sol"), rolls=([3], [1], [4, 2]))
    script_dice(site_server[1], match_id, [[1], [6]], game=2)  # Black opens game 2: White keeps the end in view
    game = game_state(white)["game"]
    click_play(white, [{"from": 13, "to": 10}, {"from": 6, "to": 5}])  # blots on 10 and 5
    black.wait_for_selector('[data-act="roll"]:visible')
    black.click('[data-act="roll"]')
    black.wait_for_function("() => bg.state.phase === 'move' && bg.state.actor === 'black'")
    click_play(black, [{"from": 1, "to": 5}, {"from": 1, "to": 3}])  # 1/5* hits White's blot
    white.wait_for_function("() => bg.state.actor === 'white' && bg.state.phase === 'turn'")
    white.on("dialog", lambda dialog: dialog.accept())  # White resigns a single game, Black accepts
    white.click("#resign-box summary")
    white.click('[data-resign="1"]')
    black.wait_for_selector('[data-act="resign_accept"]:visible')
    black.click('[data-act="resign_accept"]')
    white.wait_for_function("() => bg.state.status === 'finished'")

    seen = _replay_page(new_page, base, game, "replayhear", volume=0.25, animation="normal")
    labels = seen.eval_on_selector_all("#replay-moves li button", "bs => bs.map(b => b.textContent)")
    first_move = next(k for k, text in enumerate(labels) if "/" in text)
    hit = next(k for k, text in enumerate(labels) if "*" in text)
    # before any gesture a step forward (made by a script) moves in silence
    _step_to(seen, first_move - 1)
    seen.evaluate("() => document.getElementById('next').click()")
    seen.wait_for_function(SETTLED)
    assert seen.evaluate("() => window.soundStarts") == 0 and _heard(seen) == []
    # a person steps forward: White's two checkers, each heard as it lands
    _step_to(seen, first_move - 1)
    seen.click("#next")
    seen.wait_for_function("() => window.heard.length >= 2")
    seen.wait_for_function(SETTLED)
    assert _heard(seen) == ["move", "move"]
    assert all(x["landed"] for x in seen.evaluate("() => window.landings"))
    assert abs(seen.evaluate("() => window.gains[0].gain.value") - 0.25) < 1e-6, "the device's volume"
    # the roll is heard as the dice are thrown, the hit as the hit checker reaches the bar
    seen.keyboard.press("ArrowRight")
    seen.wait_for_function("() => window.heard.includes('roll')")
    seen.wait_for_function(SETTLED)
    seen.evaluate("() => { window.heard = []; window.landings = []; }")
    _step_to(seen, hit - 1)
    seen.click("#next")
    seen.wait_for_function("() => window.heard.length >= 3")
    seen.wait_for_function(SETTLED)
    landings = seen.evaluate("() => window.landings")
    assert [x["name"] for x in landings] == ["move", "hit", "move"], landings
    assert all(x["landed"] for x in landings) and landings[1]["via"] == ["5 bar"]
    # a jump is silent
    seen.evaluate("() => { window.heard = []; }")
    seen.click("#last")
    seen.click("#first")
    assert _heard(seen) == []

    # animation off: the step is one sound; sound off: nothing
    still = _replay_page(new_page, base, game, "replaystill", animation="off")
    quiet = _replay_page(new_page, base, game, "replayquiet", sound=False)
    for page in (still, quiet):
        _step_to(page, hit - 1)
        page.click("#next")
        page.wait_for_function("k => document.getElementById('replay').dataset.step === String(k)", arg=hit)
        page.wait_for_function(SETTLED)
    assert _heard(still) == ["hit"]
    assert _heard(quiet) == [] and quiet.evaluate("() => window.soundStarts") == 0
