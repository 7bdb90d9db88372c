"""A house-bot strategy for tests of real workers: the real one, held while a flag file exists,
so a test can kill the worker in the middle of a bot's turn."""

import os
import time
from pathlib import Path

from games.bots import decide


def decide_slowly(level, game_state, match_state=None):
    flag = os.environ.get("SLOW_BOT_FLAG")
    if flag and os.path.exists(flag):
        Path(flag + ".started").touch()
        while os.path.exists(flag):  # held until the test removes the flag, or kills this worker
            time.sleep(0.05)
    return decide(level, game_state, match_state)
