"""Whole games through the browser: clicks, not API calls (see conftest.py for the server)."""

import json

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.dice import simulate
from tests.browser.helpers import (
    click_play, create_match, game_state, join_by_invite, script_dice, sign_up, wait_version,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Found by tests.browser.dice.short_game_script(seed=7): played by always choosing the first
# legal play the server lists, White hits once, Black enters from the bar, White bears off.
SHORT_GAME = [[4], [1], [5, 6], [2, 2], [6, 4], [6, 6], [4, 6], [6, 6], [3, 3], [6, 1], [4, 4], [3, 3], [3, 2],
              [2, 2], [2, 4], [6, 6], [4, 1], [6, 6], [5, 4], [5, 5], [1, 5], [5, 5], [2, 3], [6, 6], [1, 1]]


def test_the_dice_script_makes_the_game_the_scenario_needs():
    stats = simulate(SHORT_GAME)
    assert stats["hits"] >= 1 and stats["entries"] >= 1 and stats["bearoffs"] >= 1 and stats["over"]


def _shoot(page, screenshots, name):
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=str(screenshots / f"{name}-{label}.png"), full_page=label == "phone")
    page.set_viewport_size(DESKTOP)


def test_two_players_play_a_1_point_game_while_a_spectator_watches(site_server, new_page, screenshots):
    base, dice = site_server
    alice, bob, carol = new_page(), new_page(), new_page()
    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")
    sign_up(carol, base, "carol")
    match_id, invite = create_match(alice, base, length=1, private=False)
    assert "/join/" in invite
    script_dice(dice, match_id, SHORT_GAME)
    join_by_invite(bob, invite)
    alice.wait_for_url(f"**/games/*/")  # the waiting room follows the match into its game
    game_url = bob.url
    # The lobby shows the game in progress (Watch) and an open match (Join), live.
    create_match(carol, base, length=5, private=False)
    dave = new_page()
    sign_up(dave, base, "dave")
    dave.wait_for_selector("#live-matches tbody tr[data-match] a:has-text('Watch')")
    dave.wait_for_selector("#open-matches tbody tr[data-match] button:has-text('Join')")
    _shoot(dave, screenshots, "lobby")
    dave.click("#live-matches tbody tr[data-match] a:has-text('Watch')")
    dave.wait_for_url(game_url)
    carol.goto(game_url)
    pages = {"white": alice, "black": bob}
    for page in (alice, bob, carol, dave):
        page.wait_for_function("() => window.bg && bg.state.phase === 'move'")
    alice.wait_for_function("() => bg.state.presence && bg.state.presence.spectators === 2")
    assert alice.text_content("#watchers") == "2 watching"
    dave.close()
    assert game_state(alice)["you"] == "white" and game_state(bob)["you"] == "black"
    assert game_state(carol)["you"] is None

    turns = 0
    while True:
        try:
            alice.wait_for_function("() => bg.state.phase === 'move' || bg.state.status === 'finished'")
        except Exception:
            for p in (alice, bob):
                st = game_state(p); st.pop("legal"); print(st, p.text_content("#toast"), p.text_content("#status-line"))
            raise
        state = game_state(alice)
        if state["status"] == "finished":
            break
        assert state["phase"] == "move", state["phase"]
        mover = pages[state["actor"]]
        wait_version(mover, state["version"])
        mine = game_state(mover)
        assert mine["version"] == state["version"]
        play = mine["legal"][0]
        # the spectator sees the same position, and nothing to click
        wait_version(carol, state["version"])
        assert game_state(carol)["board"] == state["board"]
        assert carol.locator("#board .selectable").count() == 0
        assert carol.locator("[data-act]:visible").count() == 0
        # the player not on roll has nothing to click either
        idle = pages["black" if state["actor"] == "white" else "white"]
        assert idle.locator("#board .selectable").count() == 0
        click_play(mover, play)
        # a move event, then the opponent's automatic roll (or the game's end)
        for page in (alice, bob, carol):
            wait_version(page, state["version"] + 1)
        turns += 1
        if turns == 6:
            _shoot(alice, screenshots, "game")
    for page in (alice, bob, carol):
        page.wait_for_selector("#end-dialog:not([hidden])")
    final = game_state(alice)
    assert final["whiteOff"] == 15 or final["blackOff"] == 15
    assert game_state(carol)["board"] == final["board"]
    assert "won the match" in alice.text_content("#end-title") or "lost the match" in alice.text_content("#end-title")
    assert alice.is_visible("#rematch") and alice.is_visible("#end-export")
    _shoot(alice, screenshots, "match-end")

    # the event log (through the .mat export and the DB-backed replay) has the hit, the entry and the bear-off
    replay = json.loads(alice.evaluate(f"() => fetch('/games/{final['game']}/replay.json').then(r => r.text())"))
    moves = [s["d"] for s in replay["steps"] if s["t"] == "move"]
    steps = [step for d in moves for step in d["moves"]]
    assert any("*" in d["notation"] for d in moves), "a hit"
    assert any(step["from"] == "bar" for step in steps), "an entry from the bar"
    assert any(step["to"] == "off" for step in steps), "a bear-off"
    mat = alice.evaluate(f"() => fetch('{alice.get_attribute('#end-export', 'href')}').then(r => r.text())")
    assert "1 point match" in mat or "point match" in mat
