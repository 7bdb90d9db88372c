"""Command line: ``python -m games.engine plays``.

Reads JSON lines on stdin, each a position in the format of the shared data
file (``board``, ``whiteBar``, ``blackBar``, ``whiteOff``, ``blackOff``,
``turn``, ``dice``; ``id`` is echoed back), and writes one JSON line per input:
``{"id": ..., "legalMoves": [[{"from": .., "to": ..}, ...], ...]}`` with one
move sequence per distinct resulting position. A bad line gets
``{"id": ..., "error": {"code": ..., "message": ...}}`` and the run goes on.
"""

from __future__ import annotations

import json
import sys

from .errors import EngineError
from .moves import legal_move_lists
from .position import Position
from games.engine.errors import gettext_noop

USAGE = "usage: python -m games.engine plays  < positions.jsonl > plays.jsonl"
MAX_LINE = 1024 * 1024


def plays_line(line: str) -> dict:
    """Answer one input line (already stripped of its newline)."""
    ident = None
    try:
        if len(line) > MAX_LINE:
            raise EngineError("line_too_long", gettext_noop("A line may hold at most %(MAX_LINE)s characters."),
                    params={"MAX_LINE": MAX_LINE})
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise EngineError("bad_json", gettext_noop("Not valid JSON: %(exc)s."), params={"exc": exc}) from None
        if not isinstance(data, dict):
            raise EngineError("bad_position", gettext_noop("Each line must be a JSON object."))
        ident = data.get("id")
        position = Position.from_dict(data)
        return {"id": ident, "legalMoves": legal_move_lists(position, data.get("dice"))}
    except EngineError as exc:
        return {"id": ident, "error": {"code": exc.code, "message": exc.message}}


def main(argv=None, stdin=None, stdout=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if argv != ["plays"]:
        print(USAGE, file=sys.stderr)
        return 2
    for raw in stdin:
        line = raw.strip()
        if not line:
            continue
        stdout.write(json.dumps(plays_line(line), separators=(",", ":")) + "\n")
        stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
