"""A chouette in the browser: three people (box, captain, crew) in their own browser
contexts and a house bot (its decisions in a real worker process) play a game with two
cubes turned, a take and a drop, to its end, then the next game with the roles rotated and a settlement
through the dialog; the scores sum to zero; the history and the phone layout show it."""

import re

import pytest

from tests.browser.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.browser.dice import scripted_site, set_chouette_script
from tests.browser.helpers import click_steps, drag_checker, sign_up
from tests.browser.test_board_motion import SETTLED, WATCH_SPRITES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# The team wins the opening (box 1, team 3); then big doubles make a short race.
GAME_1 = [[1], [3]] + [[6, 6], [5, 5], [6, 5], [4, 4], [6, 4], [5, 5], [6, 6], [3, 3], [6, 5], [6, 6]] * 6

GAME_2 = [[2], [5]] + [[6, 6], [5, 5], [6, 5], [4, 4], [6, 4], [5, 5], [6, 6], [3, 3], [6, 5], [6, 6]] * 6


@pytest.fixture
def chouette_site(tmp_path):
    with scripted_site(tmp_path, workers=1) as found:
        yield found


def _version(page) -> int:
    return page.evaluate("() => (window.ch && window.ch.version) || 0")


WATCH_CUBES = """() => { window.cubeSprites = 0; new MutationObserver(() => {
  window.cubeSprites += document.querySelectorAll('.sprite.cube').length; }).observe(document.body, {childList: true, subtree: true}); }"""
CUBE_Y = "() => { const r = document.querySelector('#board .cube rect'); return +r.getAttribute('y') + +r.getAttribute('height') / 2; }"


def _click_and_wait(page, locator):
    before = _version(page)
    locator.click()
    page.wait_for_function("v => window.ch.version > v", arg=before)


def _buttons(page) -> list:
    return page.eval_on_selector_all("#actions button", "bs => bs.map(b => b.textContent)")


def _play_on_board(page, play=None):
    """The player on roll plays ``play`` (else the first legal play) on the board, clicking
    each step's checker then its highlighted target, and confirms it."""
    play = page.evaluate("() => window.ch.st.game.legal[0]") if play is None else play
    if not play:  # nothing is legal
        _click_and_wait(page, page.locator("#play-pass"))
        return
    click_steps(page, play)
    _click_and_wait(page, page.locator("#play-confirm:not([disabled])"))


def _act_once(page, prefer) -> bool:
    """Click this person's preferred decision button, or play on the board; False when nothing is
    asked (or the end of the game is on his screen: the next game has begun under it)."""
    if page.is_visible("#end-dialog"):
        return False
    labels = _buttons(page)
    if labels:
        choice = next((label for want in prefer for label in labels if label.startswith(want)), labels[0])
        _click_and_wait(page, page.locator("#actions button", has_text=choice).first)
        return True
    if page.is_visible("#play-confirm") or page.is_visible("#play-pass"):
        _play_on_board(page)
        return True
    return False


def _past_the_end(page) -> bool:
    """The end of the game just over, on ``page``: its dialog, closed by a click; or, when the next
    game waits for this person, already gone (issue 28: his turn never waits for the end). True
    when the dialog was there."""
    page.wait_for_function("() => !document.getElementById('end-dialog').hidden"
                           " || document.getElementById('chouette').dataset.held === ''")
    return page.evaluate("""() => { const shown = !document.getElementById('end-dialog').hidden;
      if (shown) document.getElementById('end-close').click(); return shown; }""")


def _play_to_end(pages, prefer, games):
    """Everyone answers what is asked of them (the bot in the worker) until ``games`` games are over."""
    first = pages[0]
    for _ in range(600):
        if all(p.evaluate("n => window.ch.st.session.gamesPlayed >= n", games) for p in pages):
            return
        seen = [_version(page) for page in pages]
        acted = any(_act_once(page, prefer[page]) for page in pages)
        if not acted:  # the bot decides in the worker (or a frame is on its way): wait for a version
            first.wait_for_function("([seen, n]) => Math.min(...seen) < window.ch.version"
                                    " || window.ch.st.session.gamesPlayed >= n", arg=[seen, games])
            for page in pages[1:]:
                page.wait_for_function("v => window.ch.version >= v", arg=_version(first))
    raise AssertionError("the game did not end")


@pytest.fixture
def people(browser):
    """Three people in their own browser contexts: the box, the captain and the crew member to be."""
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(3)]
    for context in contexts:
        context.set_default_timeout(20_000)
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def _open_table(base, people) -> int:
    """They sign up; the first opens a chouette, the others join by its invite link. Its id."""
    box, *others = people
    for page, prefix in zip(people, ("box", "cap", "crew")):
        sign_up(page, base, prefix)
    box.goto(f"{base}/chouettes/")
    box.click("#new-chouette button[type=submit]")
    box.wait_for_url(re.compile(r".*/chouettes/\d+/$"))
    chouette_id = int(re.search(r"/chouettes/(\d+)/", box.url).group(1))
    invite = box.input_value("#invite")
    for page in others:
        page.goto(invite)
        page.click("#join-button")
        page.wait_for_url(f"**/chouettes/{chouette_id}/")
    box.wait_for_function("() => document.querySelectorAll('#line li').length === 3")
    # before the first game the table is set: the starting position, no dice
    assert box.locator("#board .checker").count() == 30 and box.locator("#board .die").count() == 0
    # the host is told he may start, the others whom they wait for
    box.wait_for_function("() => document.getElementById('status-line').textContent.startsWith('Ready: start')")
    others[0].wait_for_function("t => document.getElementById('status-line').textContent === t",
                                arg=f"Ready: waiting for {box.text_content('.whoami').strip()} to start the chouette.")
    assert others[0].is_hidden("#start")
    box.screenshot(path=str(SCREENSHOTS / "chouette-set-table.png"))
    return chouette_id


def _start(dice, chouette_id, people, seating, games):
    """Script the seating's and the games' dice, start, and wait until each person has his role."""
    set_chouette_script(dice, chouette_id, "seating", seating)
    for number, rolls in games.items():
        set_chouette_script(dice, chouette_id, number, rolls)
    people[0].click("#start")
    for page, role in zip(people, ("box", "captain", "crew")):
        page.wait_for_function("r => window.ch.st && window.ch.st.game && document.querySelector('#you-are')"
                               ".textContent.includes(r)", arg=role)


def test_box_captain_crew_and_a_bot_play_a_chouette_game(chouette_site, people, screenshots):
    site, dice = chouette_site
    base = site.url()
    box, captain, crew = people
    chouette_id = _open_table(base, people)
    box.select_option("#bot-level", "beginner")
    box.click("#add-bot")
    box.wait_for_function("() => document.querySelectorAll('#line li').length === 4")
    _start(dice, chouette_id, people, [[6], [5], [4], [3]], {1: GAME_1, 2: GAME_2})
    ids = {name: page.evaluate("() => window.ch.you") for name, page in
           (("box", box), ("captain", captain), ("crew", crew))}
    bot_id = box.evaluate("() => window.ch.st.session.line[3]")

    # The captain plays the opening 3-1 on the board; the box doubles every cube; the captain
    # takes, the crew member drops, the bot answers in the worker; the captain does not buy.
    _play_on_board(captain)
    box.wait_for_selector("#actions button:has-text('Double all')")
    _click_and_wait(box, box.locator("#actions button", has_text="Double all"))
    captain.wait_for_selector("#actions button:has-text('Take your cube')")
    box.wait_for_selector("#timer")  # the box sees who still answers, and the timer
    _click_and_wait(captain, captain.locator("#actions button", has_text="Take your cube"))
    _click_and_wait(crew, crew.locator("#actions button", has_text="Drop your cube"))
    captain.wait_for_selector("#actions button:has-text(\"Don't buy\")")
    _click_and_wait(captain, captain.locator("#actions button", has_text="Don't buy"))
    for page in (box, captain, crew):
        page.wait_for_function(f"() => document.querySelector('#cube-row li[data-cube=\"{ids['captain']}\"] "
                               ".cube-face').textContent === '2'")
        assert "out" in page.get_attribute(f"#cube-row li[data-cube='{ids['crew']}']", "class")
    bot_cube = box.evaluate(f"() => window.ch.st.game.cubes.find(c => c.member === {bot_id})")
    assert bot_cube["value"] == 2 or bot_cube["end"] == "drop"  # the bot took or dropped, in the worker
    box.screenshot(path=str(screenshots / "chouette-cubes-desktop.png"))

    # Play on to the end: nobody doubles again, doubles are taken, the captain moves.
    prefer = {box: ["No double", "Take", "Don't buy"], captain: ["No double", "Don't buy"], crew: ["No double"]}
    _play_to_end((box, captain, crew), prefer, games=1)
    scores = box.eval_on_selector_all("#line li .score", "els => els.map(e => Number(e.dataset.score))")
    assert len(scores) == 4 and sum(scores) == 0 and any(scores)
    shown = [page for page in (box, captain, crew) if _past_the_end(page)]
    assert shown, "the end's dialog, for those the next game does not wait for"
    assert all("Scores:" in page.text_content("#end-lines") for page in shown)
    # The next game started by itself, the roles rotated; it is played to its end too.
    line = box.evaluate("() => window.ch.st.session.line")
    assert sorted(line) == sorted([*ids.values(), bot_id]) and line[1] != ids["captain"]
    # The settlement dialog: a team member offers the box a point for his cube; the box accepts.
    pages = {page.evaluate("() => window.ch.you"): page for page in (box, captain, crew)}
    game = box.evaluate("() => window.ch.st.game")
    assert game["box"] in pages, "the scripted dice give the box to a person in game 2"
    member_id = next(p for p in reversed(game["team"]) if p in pages)
    the_box, member = pages[game["box"]], pages[member_id]
    member.click("#settle-open")
    member.fill("#settle-amount", "-1")
    assert member.is_checked(f"#settle-cubes input[value='{member_id}']")
    _click_and_wait(member, member.locator("#settle-propose"))
    member.click("#settle-close")
    the_box.wait_for_selector("#settle-open:not([hidden])")
    the_box.click("#settle-open")
    accept = the_box.locator(f"#offers [data-offer='{member_id}'] button[data-settle=accept_settlement]")
    _click_and_wait(the_box, accept)
    the_box.click("#settle-close")
    for page in (box, captain, crew):
        page.wait_for_function(f"() => document.querySelector('#cube-row li[data-cube=\"{member_id}\"]')"
                               ".classList.contains('out')")
    anyone = ["No double", "Take", "Don't buy"]
    _play_to_end((box, captain, crew), {box: anyone, captain: anyone, crew: anyone}, games=2)
    scores = box.eval_on_selector_all("#line li .score", "els => els.map(e => Number(e.dataset.score))")
    assert len(scores) == 4 and sum(scores) == 0
    _past_the_end(box)
    box.set_viewport_size(PHONE)
    box.screenshot(path=str(screenshots / "chouette-phone.png"), full_page=True)
    width = box.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, "the table fits a phone's width"
    crew.goto(f"{base}/chouettes/{chouette_id}/history/")
    assert crew.locator("#history tbody tr").count() >= 2
    assert "dropped" in crew.text_content("#history") and "settled" in crew.text_content("#history")
    log = crew.request.get(f"{base}/chouettes/{chouette_id}/log.txt").text()
    assert "Game 1: box" in log
    assert not site.tracebacks(), site.logs()


def test_the_captain_moves_checkers_on_the_board_and_takes_a_suggestion(chouette_site, people):
    """The captain plays as in a match (a drag, an undo, a click, the keyboard, Enter); the box
    plays its roll on the board too; a member whose cube is turned moves checkers to suggest a
    play, and the captain, clicking the suggestion, has it set out on his board to confirm."""
    site, dice = chouette_site
    box, captain, crew = people
    chouette_id = _open_table(site.url(), people)
    _start(dice, chouette_id, people, [[6], [5], [4]], {1: [[1], [3], [6, 4], [5, 2]]})
    partial = "() => window.ch.board.partial"

    # The team's opening 3-1: Black's 8/5 6/5, absolute 17/20 19/20.
    drag_checker(captain, 17, 20)
    captain.wait_for_selector("#play-undo:visible")
    assert captain.evaluate(partial) == [[{"from": 17, "to": 20}]]
    assert captain.is_disabled("#play-confirm")
    captain.click("#play-undo")
    assert captain.evaluate(partial) == []
    click_steps(captain, [{"from": 17, "to": 20}])
    captain.keyboard.press("6")  # his own 6 point (absolute 19) picks up a checker
    captain.wait_for_selector('#board .target[data-target="20"]')
    captain.keyboard.press("5")  # and his 5 point takes it there
    captain.wait_for_selector("#play-confirm:not([disabled])")
    assert "8/5 6/5" in captain.text_content("#play-text")
    box.evaluate(WATCH_SPRITES)  # the box sees the team's play move (issue 28)
    before = _version(captain)
    captain.keyboard.press("Enter")
    captain.wait_for_function("v => window.ch.version > v", arg=before)
    box.wait_for_function("() => window.ch.st.game.lastPlay.length === 2")
    box.wait_for_function("() => window.spritesSeen > 0")
    box.wait_for_function(SETTLED)
    assert box.locator("#board .checker.black").count() == 15  # every black checker drawn once, none left moving
    last_play = "() => window.ch.st.game.lastPlay.map(s => `${s.from}/${s.to}`).sort()"
    assert box.evaluate(last_play) == ["17/20", "19/20"]
    assert crew.is_hidden("#plays"), "a member whose cube is not turned does not suggest"

    # The box doubles both cubes, both take: the box plays its 6-4 on the board. The crew
    # member's own cube, on his board, turns to 2, then travels to his side when he takes.
    crew.evaluate(WATCH_CUBES)
    _click_and_wait(box, box.locator("#actions button", has_text="Double all"))
    crew.wait_for_function("() => window.cubeSprites > 0")
    crew.wait_for_function(SETTLED)
    assert crew.get_attribute("#board .cube", "data-cube") == "2"
    assert crew.evaluate(CUBE_Y) == 320, "offered: still in the middle"
    crew.evaluate("() => { window.cubeSprites = 0; }")
    # The crew member holds his Take down while the captain's take comes in: the buttons are not
    # drawn again under his finger (a button replaced between press and release loses the click).
    take = "#actions button:has-text('Take your cube')"
    for page in (captain, crew):
        page.wait_for_selector(take)
    crew.hover(take)
    crew.mouse.down()
    _click_and_wait(captain, captain.locator(take))
    crew.wait_for_function("v => window.ch.version >= v", arg=_version(captain))
    before = _version(crew)
    crew.mouse.up()
    crew.wait_for_function("v => window.ch.version > v", arg=before)
    crew.wait_for_selector(take, state="detached")
    crew.wait_for_function("() => window.cubeSprites > 0")
    crew.wait_for_function(SETTLED)
    assert crew.get_attribute("#board .cube", "data-cube") == "2"
    assert crew.evaluate(CUBE_Y) > 320, "taken: on the team's side (Black, his own: the bottom)"
    box.wait_for_selector("#play-confirm:visible")
    assert captain.is_hidden("#plays") and crew.is_hidden("#plays")
    _play_on_board(box)

    # Each member owns his cube and does not redouble, in the team's order; the team rolls 5-2 and
    # the crew member, whose cube is turned, suggests a play.
    for page in (captain, crew):
        page.wait_for_selector("#actions button:has-text('No double')")
        _click_and_wait(page, page.locator("#actions button", has_text="No double"))
    crew.wait_for_selector("#play-suggest:visible")
    assert captain.is_visible("#play-confirm") and crew.is_hidden("#play-confirm")
    suggested = crew.evaluate("() => window.ch.st.game.legal.at(-1)")
    click_steps(crew, suggested)
    crew.click("#play-suggest:not([disabled])")
    captain.wait_for_selector("#suggestions li")
    assert captain.evaluate(partial) == []
    captain.click("#suggestions li")
    captain.wait_for_selector("#play-confirm:not([disabled])")
    before = _version(captain)
    captain.click("#play-confirm")
    captain.wait_for_function("v => window.ch.version > v", arg=before)
    box.wait_for_function("n => window.ch.st.game.turnNumber > n", arg=2)
    assert box.evaluate(last_play) == sorted(f"{s['from']}/{s['to']}" for s in suggested)
    assert not site.tracebacks(), site.logs()
