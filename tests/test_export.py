"""The .mat export (games.selectors.export) and its import by GNU Backgammon.

``play_match`` plays a whole 3-point match through the services with a fixed
dice seed, so every run plays the same games: game 1 ends with a double and a
drop, later games turn the cube with a take and are played out to the last
checker off, with hits on the way.
"""
import re
import subprocess

import pytest

from games import services
from games.dice import ScriptedDice, SeededDice
from games.engine import TURN
from games.selectors.export import COLUMN, game_position_ids, match_to_mat
from games.models import Game, Match
from tests.support import require_gnubg

FIXED_SEED = "5eed" * 16  # any fixed seed plays the same match every time


def choose_play(state):
    """A deterministic racing policy: bring the back checkers home (least sum of
    squared distances), then prefer a hit, then bear off most; ties: the first play."""
    color = state.position.turn
    opponent = "black" if color == "white" else "white"

    def key(play):
        own = play.result.mover_points(color)
        spread = sum(count * point * point for point, count in enumerate(own))
        return (spread, -play.result.pip_count(opponent), -own[0])

    return min(state.legal_plays(), key=key)


def play_match(*, length=3, seed=FIXED_SEED, names=("alice", "bob"), dice=None, double_at=6):
    """Play a match to its end through the services; returns the finished Match.

    Cube policy: in game 1 the first player who may double does and the opponent
    drops; in later games a player doubles (centred cube, turn >= ``double_at``)
    and the opponent takes; nobody redoubles. ``dice`` defaults to a SeededDice
    on ``seed`` shared by all games (deterministic); pass ``dice=False`` to
    roll each game's own fair seed.
    """
    p1 = services.player_register(username=names[0], password="pw-" + names[0] * 3)
    p2 = services.player_register(username=names[1], password="pw-" + names[1] * 3)
    players = {"white": p1, "black": p2}
    source = SeededDice(seed) if dice is None else dice

    def run():
        match = services.match_create(creator=p1, length=length)
        services.match_join(player=p2, match_id=match.pk)
        for _ in range(2000):
            match.refresh_from_db()
            if match.status != Match.PLAYING:
                return match
            game = match.games.order_by("-number").first()
            state = game.game_state()
            actor = state.actor
            player = players[actor]
            if state.phase == TURN:
                if state.can_double(actor) and state.cube_owner is None and (
                        game.number == 1 or state.turn_number >= double_at):
                    services.game_double(game_id=game.pk, player=player)
                else:
                    services.game_roll(game_id=game.pk, player=player)
            elif state.phase == "cube_offered":
                if game.number == 1:
                    services.game_drop(game_id=game.pk, player=player)
                else:
                    services.game_take(game_id=game.pk, player=player)
            else:
                play = choose_play(state)
                services.game_move(game_id=game.pk, player=player, moves=play.to_list())
        raise AssertionError("the match did not end in 2000 actions")

    if source is False:
        return run()
    with services.use_dice(source):
        return run()


def _event_types(match):
    from games.models import GameEvent
    return list(GameEvent.objects.filter(game__match=match).order_by("game__number", "version")
                .values_list("type", "payload"))


@pytest.fixture
def match(db):
    return play_match()


@pytest.mark.django_db
def test_the_scripted_match_has_what_the_export_must_show(match):
    events = _event_types(match)
    types = [t for t, _ in events]
    notations = [d["notation"] for t, d in events if t == "move"]
    assert match.status == Match.FINISHED
    assert max(match.white_score, match.black_score) >= 3
    assert "take" in types and "drop" in types
    assert any("*" in n for n in notations), "no hit was played"
    assert any("off" in n for n in notations), "no checker was borne off"
    assert any(d.get("reason") == "bearoff" for t, d in events if t == "game_end")


@pytest.mark.django_db
def test_mat_text_format(match):
    text = match_to_mat(match)
    lines = text.splitlines()
    assert lines[0] == " 3 point match"
    assert lines[1] == ""
    assert lines[2] == " Game 1"
    # header: left column = Black (bob), right = White (alice), scores at the start of the game
    assert re.fullmatch(r" bob : 0 {24}alice : 0", lines[3]), lines[3]
    assert lines[3].index("alice") == 32
    games = list(match.games.order_by("number"))
    assert text.count(" Game ") == len(games)

    # game 1: the first player able to double doubled and the other dropped
    g1 = games[0]
    g1_lines = text.split(" Game 2")[0].splitlines()[4:]
    cube_line = next(line for line in g1_lines if "Doubles => 2" in line)
    drops_line = next(line for line in g1_lines if "Drops" in line)
    doubler = g1.events.get(type="double").payload["color"]
    if COLUMN[doubler] == 0:  # doubler on the left: the drop is on the same line, right column
        assert cube_line == drops_line
        assert re.match(r"^ *\d+\)  Doubles => 2 +Drops$", cube_line)
        assert cube_line.index(" Drops") == 33  # the right cell starts at column 33
    else:  # doubler on the right: the drop starts the next line, padded to the right column
        assert cube_line.index("Doubles") == 34 and re.match(r"^ *\d+\)  Drops +$", drops_line)
        assert len(drops_line) == 33
    winner = g1.winner_color
    wins = [line for line in g1_lines if "Wins" in line]
    assert wins == [(" " * 34 if COLUMN[winner] else " " * 6) + "Wins 1 point"]

    # every game: line numbers count up from 1, each turn is "dd: play" in the mover's column
    for game, block in zip(games, text.split(" Game ")[1:]):
        body = [line for line in block.splitlines()[2:] if line.strip() and "Wins" not in line]
        numbers = [int(line[:4].strip(" )")) for line in body]
        assert numbers == list(range(1, len(body) + 1))
        moves = list(game.events.filter(type="move").order_by("version"))
        first_mover = game.events.filter(type="opening_roll").order_by("-version").first().payload["first"]
        if COLUMN[first_mover] == 1:
            assert body[0][:5] == "  1) " and body[0][5:33].strip() == "" and body[0][33] != " "
        else:
            assert body[0][5] != " "
        # each move appears in its column, in order
        cells = []
        for line in body:
            cells.append((0, line[5:33].strip()))
            cells.append((1, line[33:].strip()))
        move_cells = [(c, t) for c, t in cells if re.match(r"^[1-6][1-6]:", t)]
        assert move_cells == [
            (COLUMN[m.payload["color"]],
             f"{m.payload['dice'][0]}{m.payload['dice'][1]}: {m.payload['notation']}".strip())
            for m in moves
        ]
        if game.points:
            assert (f"Wins {game.points} point" in block)
    # the take in a later game
    assert " Takes" in text.split(" Game 2")[1]


@pytest.mark.django_db
def test_mat_of_a_running_match_and_a_fresh_one(db):
    p1 = services.player_register(username="carol", password="pw-carolcarol")
    p2 = services.player_register(username="dave", password="pw-davedave")
    m = services.match_create(creator=p1, length=5)
    assert match_to_mat(m) == " 5 point match\n\n"
    # opening roll: white 3, black 1 -> White (right column) moves first with 31
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        services.match_join(player=p2, match_id=m.pk)
    game = m.games.get()
    services.game_move(game_id=game.pk, player=p1, moves=[{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    services.game_double(game_id=game.pk, player=p2)
    m.refresh_from_db()
    text = match_to_mat(m)
    assert text.splitlines() == [
        " 5 point match",
        "",
        " Game 1",
        " dave : 0                       carol : 0",
        "  1)                             31: 8/5 6/5",
        "  2)  Doubles => 2" + " " * 15,  # padded to the right column: gnubg misreads short lines
        "",
    ]
    assert "Wins" not in text


@pytest.mark.django_db
def test_money_session_header_and_beaver_refused(db):
    p1 = services.player_register(username="erin", password="pw-erinerin")
    p2 = services.player_register(username="frank", password="pw-frankfrank")
    m = services.match_create(creator=p1, length=0, beaver=True)
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        services.match_join(player=p2, match_id=m.pk)
    assert match_to_mat(m).startswith(" 0 point match\n")
    game = m.games.get()
    services.game_move(game_id=game.pk, player=p1, moves=[{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    services.game_double(game_id=game.pk, player=p2)
    services.game_beaver(game_id=game.pk, player=p1)
    with pytest.raises(ValueError, match="beaver"):
        match_to_mat(m)


@pytest.mark.django_db
def test_game_position_ids(match):
    game = match.games.order_by("number").first()
    ids = game_position_ids(game)
    versions = list(game.events.order_by("version").values_list("version", "type"))
    assert [(e["version"], e["type"]) for e in ids] == versions
    assert ids[0]["positionId"] == "4HPwATDgc/ABMA"  # the starting position
    for entry in ids:
        assert len(entry["positionId"]) == 14 and len(entry["matchId"]) == 12
        assert entry["gnubgId"].split(":")[0] == entry["positionId"]
    from games.engine.gnubgid import match_from_id
    last = match_from_id(ids[-1]["matchId"])
    assert last["match_length"] == 3 and last["game_state"] == 4  # game 1 ended with a drop


# -- GNU Backgammon itself ---------------------------------------------------------------


def run_gnubg(gnubg, commands, tmp_path):
    """Run gnubg in tty mode on ``commands``; returns its output (stdout + stderr)."""
    proc = subprocess.run(
        [gnubg, "-t", "-q"], input="\n".join(commands) + "\n", capture_output=True, text=True,
        timeout=120, cwd=tmp_path, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin:/usr/games"},
    )
    return proc.stdout + proc.stderr


@pytest.mark.django_db
def test_gnubg_imports_the_export(match, tmp_path):
    gnubg = require_gnubg()
    mat = tmp_path / "match.mat"
    mat.write_text(match_to_mat(match))
    out_mat = tmp_path / "reexport.mat"
    output = run_gnubg(gnubg, [f"import mat {mat}", "show score", f"export match mat {out_mat}"], tmp_path)

    assert "Invalid move" not in output, output
    assert "Unrecognised" not in output, output
    assert "doesn't follow" not in output, output
    found = re.search(r"The score \(after (\d+) games?\) is: (\S+) (\d+), (\S+) (\d+) \(match to (\d+) points?\)",
                      output)
    assert found, output
    games, left, left_score, right, right_score, length = found.groups()
    assert int(games) == match.games.count()
    assert (left, int(left_score)) == ("bob", match.black_score)
    assert (right, int(right_score)) == ("alice", match.white_score)
    assert int(length) == 3

    # gnubg's own re-export has the same turns (gnubg writes one step per die, so compare dice)
    ours = re.findall(r"\b([1-6][1-6]):", mat.read_text())
    theirs = re.findall(r"\b([1-6][1-6]):", out_mat.read_text())
    assert theirs == ours


@pytest.mark.django_db
def test_gnubg_shows_our_ids_for_a_running_game(tmp_path):
    """Import an unfinished match: gnubg's Position ID and Match ID of the last
    position equal game_position_ids' entry for the last move (before the next roll)."""
    gnubg = require_gnubg()
    p1 = services.player_register(username="gina", password="pw-ginagina")
    p2 = services.player_register(username="hank", password="pw-hankhank")
    with services.use_dice(SeededDice(FIXED_SEED)):
        m = services.match_create(creator=p1, length=5)
        services.match_join(player=p2, match_id=m.pk)
        players = {"white": p1, "black": p2}
        game = m.games.get()
        for _ in range(9):  # nine turns, no cube
            game.refresh_from_db()
            state = game.game_state()
            if state.phase == TURN:
                services.game_roll(game_id=game.pk, player=players[state.actor])
                game.refresh_from_db()
                state = game.game_state()
            services.game_move(game_id=game.pk, player=players[state.actor],
                               moves=choose_play(state).to_list())
    m.refresh_from_db()
    mat = tmp_path / "running.mat"
    mat.write_text(match_to_mat(m))
    output = run_gnubg(gnubg, [f"import mat {mat}", "show board"], tmp_path)
    last_move = [e for e in game_position_ids(game) if e["type"] == "move"][-1]
    pids = re.findall(r"Position ID: (\S+)", output)
    mids = re.findall(r"Match ID   : (\S+)", output)
    assert pids and pids[-1] == last_move["positionId"], output
    # all 12 characters, gnubg 1.07's Jacoby bit (set: no Jacoby in match play) included
    assert mids and mids[-1] == last_move["matchId"], output
