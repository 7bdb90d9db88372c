"""The engine's command-line contract: python -m games.engine plays."""

import io
import json
import subprocess
import sys
from pathlib import Path

from games.engine.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def test_cli_answers_every_reference_line_with_gnubgs_plays(reference_lines):
    stdin = "\n".join(json.dumps(line) for line in reference_lines) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "plays"],
        input=stdin, capture_output=True, text=True, cwd=ROOT, check=True,
    )
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == len(reference_lines)
    for line, answer in zip(reference_lines, out):
        assert answer["id"] == line["id"]
        assert len(answer["legalMoves"]) == line["nplays"]
        # every sequence is die by die in the wire format
        for seq in answer["legalMoves"]:
            assert all(set(step) == {"from", "to"} for step in seq)
    # the no-legal-move case is a single empty sequence
    dance = next(i for i, l in enumerate(reference_lines) if "no_legal_move" in l["tags"])
    assert out[dance]["legalMoves"] == [[]]


def test_cli_reports_bad_lines_and_keeps_going():
    lines = [
        "not json",
        json.dumps([1, 2]),
        json.dumps({"id": "short", "board": [0] * 5}),
        json.dumps({"id": "count", "board": [0] * 25, "turn": "white", "dice": [1, 2]}),
        json.dumps({"id": "dice", **_initial(), "dice": [0, 9]}),
        json.dumps({"id": "turn", **_initial(), "turn": "red", "dice": [1, 2]}),
        "",
        json.dumps({"id": "ok", **_initial(), "dice": [3, 1]}),
    ]
    out = io.StringIO()
    assert main(["plays"], io.StringIO("\n".join(lines) + "\n"), out) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    codes = [a.get("error", {}).get("code") for a in answers]
    assert codes == ["bad_json", "bad_position", "bad_board", "bad_checker_count", "bad_dice", "bad_turn", None]
    assert answers[2]["id"] == "short"
    assert len(answers[-1]["legalMoves"]) == 16 and answers[-1]["id"] == "ok"
    assert all("message" in a["error"] for a in answers[:-1])


def test_cli_refuses_unknown_commands():
    assert main(["moves"], io.StringIO(""), io.StringIO()) == 2


def _initial():
    from games.engine import Position

    data = Position.initial().to_dict()
    return data
