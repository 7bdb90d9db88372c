"""Cube decisions are cubeful at the match score: the 2-away doubler's dead cube.

3-point match, White leads 1-0 (2-away), Black 3-away, cube centred, White on roll
before rolling in a strong but not crushing position (about 70% wins, 31% gammons).
After a double White's cube is dead (a single win at 2 wins the match) while Black,
owning the cube at 2, redoubles to 4 as soon as the game turns: the take is worth much
more to Black than the cubeless numbers say. GNU Backgammon 1.07 at 2-ply: no double
0.837, double/take 0.652: no double, doubling a big error. Janowski's formula on the
cubeless probabilities (the method before) gave double/take 0.844 above no double 0.835
and called the double right.
"""
from __future__ import annotations

import json
import os
import subprocess
import tempfile

import pytest

from games.analysis import check_cube, hint, sage_eval
from games.analysis.context import cube_context
from games.bots.levels import SAGE, Level
from games.bots.strategy import Bot
from games.engine.gnubgid import position_from_id
from tests.bots.states import match, turn_state
from tests.support import require_gnubg

POSITION_ID = "hlfwADho8+ABCg"  # White on roll, gnubg's Position ID
LENGTH, SCORE = 3, (1, 0)  # (white, black): White 2-away, Black 3-away

_GNUBG_SCRIPT = r'''
import gnubg, json
job = json.load(open("job.json"))
board = gnubg.positionfromid(job["pid"])
ci = gnubg.cubeinfo(1, -1, 1, job["length"], (job["taker_score"], job["doubler_score"]), 0, 0)
ec = gnubg.evalcontext(1, job["plies"], 0, 1, 0.0)
optimal, nd, dt, dp = gnubg.cfevaluate(board, ci, ec)[:4]
json.dump({"nd": nd, "dt": dt, "dp": dp}, open("out.json", "w"))
'''


def gnubg_cube(plies: int) -> dict:
    """GNU Backgammon's cubeful no double / double-take / double-pass equities of the
    position for the player on roll (the doubler) at the score."""
    gnubg = require_gnubg()
    with tempfile.TemporaryDirectory() as tmp:
        job = {"pid": POSITION_ID, "length": LENGTH, "doubler_score": SCORE[0], "taker_score": SCORE[1],
               "plies": plies}
        with open(os.path.join(tmp, "job.json"), "w") as fh:
            json.dump(job, fh)
        with open(os.path.join(tmp, "run.py"), "w") as fh:
            fh.write(_GNUBG_SCRIPT)
        proc = subprocess.run([gnubg, "-t", "-q", "-r", "-p", "run.py"], capture_output=True, text=True,
                              timeout=300, cwd=tmp, env={"HOME": tmp, "PATH": "/usr/bin:/bin:/usr/games"})
        out = os.path.join(tmp, "out.json")
        assert os.path.exists(out), (proc.stdout + proc.stderr)[-2000:]
        with open(out) as fh:
            return json.load(fh)


def state():
    return turn_state(position_from_id(POSITION_ID, "white"), match(LENGTH, score=SCORE))


def test_the_position_is_the_one_gnubg_sees():
    st = state()
    ctx = cube_context(st, "white", match_length=LENGTH, score=SCORE)
    assert (ctx.away, ctx.opponent_away, ctx.cube_value, ctx.owner) == (2, 3, 1, "centered")


def test_gnubg_says_no_double():
    g = gnubg_cube(2)
    assert g["nd"] > g["dt"] + 0.1  # doubling gives away more than 0.1


@pytest.mark.parametrize("ply", [1, 2])
def test_the_analysis_agrees_with_gnubg(ply):
    g = gnubg_cube(ply)
    ev = sage_eval.evaluator(ply)
    st = state()
    cube = ev.cube(ev.board(st.position, "white"), cube_context(st, "white", match_length=LENGTH, score=SCORE))
    assert cube.nd > cube.dt + 0.1  # no double, as gnubg
    assert cube.dt == pytest.approx(g["dt"], abs=0.06)
    assert cube.nd == pytest.approx(g["nd"], abs=0.04)
    assert cube.dp == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize("ply", [0, 1, 2])
def test_hint_and_tutor_say_roll(ply):
    st = state()
    answer = hint(st, match_length=LENGTH, score=SCORE, ply=ply)
    assert answer["kind"] == "cube" and answer["action"] == "roll"
    double = check_cube(st, "double", match_length=LENGTH, score=SCORE, ply=ply)
    assert double["best"] == "roll" and double["mark"] in ("bad", "very_bad")
    assert check_cube(st, "roll", match_length=LENGTH, score=SCORE, ply=ply)["loss"] == 0


@pytest.mark.parametrize("cube_ply", [0, 1])
def test_a_house_bot_does_not_double(cube_ply):
    bot = Bot(Level("test_cube", 9, "no noise", SAGE, ply=0, cube_ply=cube_ply))
    assert bot.should_double(state(), match(LENGTH, score=SCORE), "white") is False
