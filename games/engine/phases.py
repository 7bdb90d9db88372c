"""The phases of a match game (``GameState.phase``)."""

OPENING = "opening"  # the opening roll, one die each
TURN = "turn"  # the side on roll may double, else rolls
MOVE = "move"  # the side on roll plays its dice
CUBE_OFFERED = "cube_offered"  # the opponent takes, drops or beavers
RESIGN_OFFERED = "resign_offered"  # the opponent accepts or rejects
OVER = "over"

PHASES = (OPENING, TURN, MOVE, CUBE_OFFERED, RESIGN_OFFERED, OVER)
