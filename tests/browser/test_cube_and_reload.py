"""The doubling cube and the Crawford game; a reload in the middle of a game."""

import re

import pytest

from tests.browser.helpers import click_play, create_match, game_state, join_by_invite, script_dice, sign_up, wait_version

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _start(site_server, new_page, length, rolls, game2=None):
    base, dice = site_server
    white, black = new_page(), new_page()
    for page in (white, black):
        page.on("dialog", lambda d: d.accept())  # the resign offer asks "are you sure?"
    sign_up(white, base, "white")
    sign_up(black, base, "black")
    match_id, invite = create_match(white, base, length=length, cube=True)
    script_dice(dice, match_id, rolls)
    if game2:
        script_dice(dice, match_id, game2, game=2)
    join_by_invite(black, invite)
    white.wait_for_url(re.compile(r".*/games/\d+/$"))
    for page in (white, black):
        page.wait_for_function("() => window.bg && bg.state.phase === 'move'")
    return white, black


def _visible(page, act):
    return page.is_visible(f'[data-act="{act}"]')


def test_cube_offered_and_taken_then_the_crawford_game_has_no_cube(site_server, new_page):
    # White opens with 3-1; Black rolls 2-1 itself (it could have doubled); White doubles, Black takes.
    white, black = _start(site_server, new_page, 3, [[3], [1], [2, 1], [6, 5], [4, 2], [3, 3]],
                          game2=[[5], [2], [6, 4], [5, 3], [4, 1], [2, 2], [6, 1]])
    click_play(white, game_state(white)["legal"][0])
    # Black's turn with a centred cube: Roll and Double are offered, Black rolls.
    black.wait_for_selector('[data-act="roll"]:visible')
    assert _visible(black, "double")
    assert not _visible(white, "double") and not _visible(white, "roll")
    black.click('[data-act="roll"]')
    black.wait_for_function("() => bg.state.phase === 'move'")
    click_play(black, game_state(black)["legal"][0])
    # White doubles; Black sees Take / Pass and takes.
    white.wait_for_selector('[data-act="double"]:visible')
    white.click('[data-act="double"]')
    black.wait_for_selector('[data-act="take"]:visible')
    assert _visible(black, "drop")
    assert "take or pass" in black.text_content("#status-line")
    black.click('[data-act="take"]')
    for page in (white, black):
        page.wait_for_function("() => bg.state.cube.value === 2 && bg.state.cube.owner === 'black'")
        page.wait_for_selector('#board .cube[data-cube="2"]')
    # The cube is Black's now: White cannot double, its roll is automatic.
    white.wait_for_function("() => bg.state.phase === 'move' && bg.state.actor === 'white'")
    assert not _visible(white, "double")
    first_game = game_state(white)["game"]
    # White offers to resign a single game; Black accepts: 2 points (cube 2) to Black.
    white.click("#resign-box summary")
    white.click('[data-resign="1"]')
    black.wait_for_selector('[data-act="resign_accept"]:visible')
    black.click('[data-act="resign_accept"]')
    # The end of the game stays in view (no dialog over the board) until "Next game" for Black;
    # White opens game 2 (5-2), so his board goes on to it at once (issue 28).
    white.wait_for_function(f"() => bg.state.game !== {first_game} && bg.state.phase === 'move' && bg.state.actor === 'white'")
    assert white.is_hidden('[data-act="next"]')
    for page in (black,):
        page.wait_for_selector('[data-act="next"]:visible')
        assert "2 points" in page.text_content("#status-line")
        assert "0 – 2" in page.text_content("#status-line")
        assert page.is_hidden("#end-dialog")
    # The socket followed the match into game 2, the Crawford game, and the URL too.
    black.click('[data-act="next"]')
    for page in (white, black):
        page.wait_for_function(f"() => bg.state.game !== {first_game} && bg.state.phase === 'move'")
        assert page.url.endswith(f"/games/{game_state(page)['game']}/")
        assert page.is_visible("#score .badge") and "Crawford" in page.text_content("#score")
    # Play a few turns of the Crawford game: nobody is ever offered the cube (rolls are automatic).
    pages = {"white": white, "black": black}
    for _ in range(4):
        state = game_state(white)
        mover = pages[state["actor"]]
        wait_version(mover, state["version"])
        for page in (white, black):
            assert not _visible(page, "double") and not _visible(page, "roll")
        click_play(mover, game_state(mover)["legal"][0])
        white.wait_for_function(f"() => bg.state.version > {state['version']} && bg.state.phase === 'move'")


def test_a_player_who_reloads_finds_the_game_where_it_was(site_server, new_page):
    white, black = _start(site_server, new_page, 5, [[6], [1], [5, 5], [4, 3], [2, 1]])
    click_play(white, game_state(white)["legal"][0])
    black.wait_for_function("() => bg.state.phase === 'turn' && bg.state.actor === 'black'")
    black.click('[data-act="roll"]')
    black.wait_for_function("() => bg.state.phase === 'move'")
    # Black makes half of its play, then reloads.
    play = game_state(black)["legal"][0]
    black.click(f'#board [data-hit="{play[0]["from"]}"]')
    black.click(f'#board [data-hit="{play[0]["to"]}"]')
    black.wait_for_function("() => bg.state.partial.length === 1")
    before = game_state(black)
    svg_before = white.inner_html("#board")
    black.reload()
    black.wait_for_function("() => window.bg && document.body.dataset.connected === '1'")
    after = game_state(black)
    for key in ("version", "phase", "actor", "board", "legal", "whiteBar", "blackBar", "game"):
        assert after[key] == before[key], key
    assert black.evaluate("() => bg.state.partial.length") == 0  # unsent steps are not kept
    assert black.input_value("#position-id") == white.input_value("#position-id")
    # Finish the play after the reload; both boards agree.
    click_play(black, play)
    white.wait_for_function(f"() => bg.state.version > {before['version']}")
    wait_version(black, game_state(white)["version"])
    assert game_state(white)["board"] == game_state(black)["board"]
    assert white.inner_html("#board") != svg_before
