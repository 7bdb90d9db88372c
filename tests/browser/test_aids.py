"""Hints and the tutor in the browser: an unrated match created with aids on; the player on
roll gets the best plays drawn on the board, the tutor stops a poor play and lets it be taken
back, and a spectator sees that the aids are on but gets no hint button."""

import re

import pytest

from tests.browser.helpers import click_play, game_state, join_by_invite, script_dice, sign_up, wait_version

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WORST_PLAY = """async () => {
  const game = bg.state.game, csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1];
  let worst = null;
  for (const moves of bg.state.legalMoves) {
    const r = await fetch(`/games/${game}/tutor.json`, {method: 'POST', body: JSON.stringify({moves}),
      headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf}});
    const check = await r.json();
    if (!worst || check.loss > worst.loss) worst = {moves, loss: check.loss, mark: check.mark};
  }
  return worst;
}"""


def test_hint_and_tutor_in_an_unrated_match(site_server, new_page):
    base, dice = site_server
    alice, bob, carol = new_page(), new_page(), new_page()
    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")
    alice.goto(f"{base}/")
    alice.fill("#new-match input[name=length]", "3")
    alice.select_option("#new-match select[name=rated]", "0")
    alice.check("#new-match input[name=aids]")
    alice.click("#new-match button[type=submit]")
    alice.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match_id = int(re.search(r"/matches/(\d+)/", alice.url).group(1))
    script_dice(dice, match_id, [[3], [1], [6, 5], [4, 2]])  # White (alice) opens with 3-1
    join_by_invite(bob, alice.input_value("#invite-link"))
    alice.wait_for_url("**/games/*/")
    game_url = bob.url

    # a spectator sees which aids are on, and has no hint button
    carol.goto(game_url)
    assert "Hints and tutor on" in carol.locator("#aids").inner_text()
    assert carol.locator("#hint-btn").count() == 0
    assert "Hints and tutor on" in bob.locator("#aids").inner_text()

    alice.wait_for_function("() => window.bg && bg.state.phase === 'move' && bg.state.actor === 'white'")
    alice.click("#hint-btn")
    alice.wait_for_selector("#hint-box .alt")
    assert alice.locator("#hint-box .alt").first.inner_text().startswith("8/5 6/5")
    assert alice.locator("#hint-layer line.hint-arrow").count() == 2  # the best play, drawn on the board

    # the tutor: the worst play warns; "Take it back" sends nothing
    worst = alice.evaluate(WORST_PLAY)
    assert worst["mark"] in ("doubtful", "bad", "very_bad"), worst
    alice.select_option("#tutor-threshold", "doubtful")
    version = game_state(alice)["version"]
    click_play(alice, worst["moves"])
    alice.wait_for_selector("#tutor-back")
    assert "Best: 8/5 6/5" in alice.locator(".tutor-warning").inner_text()
    alice.click("#tutor-back")
    alice.wait_for_function("() => document.getElementById('hint-box').textContent.includes('Taken back')")
    state = game_state(alice)
    assert state["version"] == version and state["phase"] == "move"
    while alice.locator('[data-act="undo"]').is_visible():
        alice.click('[data-act="undo"]')
    # the best play passes the tutor and is sent
    click_play(alice, [{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    wait_version(alice, version + 1)
    alice.wait_for_function("() => bg.state.actor === 'black'")
    # now alice is not on roll: the server refuses her a hint
    response = alice.request.get(f"{base}/games/{state['game']}/hint.json")
    assert response.status == 409 and response.json()["error"]["code"] == "not_your_turn"
