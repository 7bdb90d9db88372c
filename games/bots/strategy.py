"""The bot: checker play, cube and resignation decisions for one level.

Pure: engine state in, decision out. Randomness only from ``random.Random``
instances seeded by :mod:`games.bots.seeding` (position key + dice + level).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from games.engine import GameState, legal_plays
from games.engine.position import other

from . import heuristics, pubeval
from games.analysis import sage
from .levels import PUBEVAL, RANDOM, SAGE, Level, get_level
from .seeding import position_seed

TAKE, DROP, BEAVER = "take", "drop", "beaver"


def _match_scores(match_state, color):
    """(my away, opponent away, post-Crawford, Crawford game) -- aways None for money."""
    if match_state is None or match_state.rules.is_money:
        return None, None, False, False
    return (
        match_state.away(color),
        match_state.away(other(color)),
        bool(match_state.post_crawford),
        bool(match_state.is_crawford_game),
    )


@dataclass(frozen=True)
class Bot:
    """A strategy at one :class:`Level` (picklable: it holds only the level)."""

    level: Level

    # -- checker play --------------------------------------------------------
    def choose_play(self, state_or_position, dice=None, match_state=None, salt: str = ""):
        """The play this level makes. ``state_or_position``: a :class:`GameState`
        in the ``move`` phase (its dice are used) or a :class:`Position` with ``dice``."""
        game_state = None
        if isinstance(state_or_position, GameState):
            game_state = state_or_position
            position = game_state.position
            dice = dice or game_state.dice
        else:
            position = state_or_position
        if not dice:
            raise ValueError("choose_play needs dice")
        plays = legal_plays(position, dice)
        if len(plays) == 1:
            return plays[0]
        # Canonical order (by resulting position) so noise does not depend on generation order.
        plays.sort(key=lambda p: p.result.key())
        level = self.level
        rng = random.Random(position_seed(position, dice, level.name, "play", salt))
        if level.engine == RANDOM:
            return plays[rng.randrange(len(plays))]
        scores, noise = None, level.noise
        if level.engine == SAGE and sage.available():
            scores = self._sage_scores(position, dice, plays, game_state, match_state)
        if scores is None:
            scores = pubeval.score_plays(position, plays)
            if level.engine != PUBEVAL:
                noise = level.fallback_noise
        if noise:
            scores = scores + noise * np.array([rng.gauss(0.0, 1.0) for _ in plays])
        return plays[int(np.argmax(scores))]

    def _sage_scores(self, position, dice, plays, game_state, match_state):
        color = position.turn
        is_match = match_state is not None and not match_state.rules.is_money
        if self.level.ply >= 2:
            # 2-ply checker play cubeless: about 50 ms a move instead of seconds cubeful
            # (bench/bot_speed.py); its strength is the one bench/bot_strength.py measures.
            cube, cubeful = {}, False
        elif game_state is not None and is_match:
            # Match play: bgsage weighs gammons by the score (e.g. none at DMP).
            cube, cubeful = sage.match_args(game_state, match_state, color), True
            if not game_state.rules.cube_in_play:
                cube["is_crawford"] = True  # no cube in this game: bgsage's cube-less match mode
        elif game_state is not None and game_state.rules.cube_in_play:
            cube, cubeful = sage.match_args(game_state, match_state, color), True
        else:
            cube, cubeful = {}, False  # cubeless money (or a bare position)
        eqs = sage.play_equities(position, dice, plays, self.level.ply, cube, cubeful)
        known = [e for e in eqs if e is not None]
        if not known:
            return None
        floor = min(known) - 1.0
        return np.array([floor if e is None else e for e in eqs])

    # -- cube ------------------------------------------------------------------
    def _noise(self, position, what: str) -> float:
        if not self.level.cube_noise:
            return 0.0
        rng = random.Random(position_seed(position, None, self.level.name, what))
        return rng.gauss(0.0, self.level.cube_noise)

    def _cube_analysis(self, state, match_state, color):
        """bgsage's cube analysis with ``color`` on roll as the doubler, or None."""
        if not sage.available():
            return None
        return sage.cube_action(
            state.position, color, sage.match_args(state, match_state, color), self.level.cube_ply
        )

    def should_double(self, state: GameState, match_state, color: str) -> bool:
        """Whether ``color`` (on roll, before rolling) offers the cube."""
        if not state.can_double(color) or state.rules.crawford_game:
            return False
        my_away, opp_away, post, crawford = _match_scores(match_state, color)
        if crawford:
            return False  # never in the Crawford game
        if my_away is not None:
            if state.cube_value >= my_away:
                return False  # dead cube: winning at this value already wins the match
            if post and opp_away == 1:
                return True  # post-Crawford: the trailer doubles at once
        analysis = self._cube_analysis(state, match_state, color)
        if analysis is not None:
            gain = min(analysis.equity_dt, analysis.equity_dp) - analysis.equity_nd
        else:
            p = heuristics.win_probability(state.position, color)
            tp = heuristics.take_point(opp_away, my_away, state.cube_value, post)
            gain = p - (1.0 - tp - 0.10)
        return gain + self._noise(state.position, "double") > 0.0

    def take_decision(self, state: GameState, match_state, color: str) -> str:
        """``take``, ``drop`` or ``beaver`` for ``color``, who was just doubled."""
        doubler = other(color)
        my_away, opp_away, post, _crawford = _match_scores(match_state, color)
        if opp_away is not None and state.cube_value >= opp_away:
            return TAKE  # dropping would lose the match anyway
        analysis = self._cube_analysis(state, match_state, doubler)
        if analysis is not None:
            margin = analysis.equity_dp - analysis.equity_dt  # doubler's view: lower is better for us
            clearly_good = analysis.is_beaver and analysis.cubeless_equity < -0.05
        else:
            p = 1.0 - heuristics.win_probability(state.position, doubler)
            margin = p - heuristics.take_point(my_away, opp_away, state.cube_value, post)
            clearly_good = p >= 0.55
        if state.can_beaver(color) and clearly_good:
            return BEAVER
        return TAKE if margin + self._noise(state.position, "take") >= 0.0 else DROP

    def should_raccoon(self, state: GameState, match_state, color: str) -> bool:
        """After a beaver: whether the original doubler redoubles (raccoon)."""
        if not state.can_raccoon(color):
            return False
        analysis = self._cube_analysis(state, match_state, color)
        if analysis is not None:
            return analysis.cubeless_equity > 0.05
        return heuristics.win_probability(state.position, color) >= 0.55

    # -- resignation -------------------------------------------------------------
    def accept_resignation(self, state: GameState, match_state, color: str) -> bool:
        """Accept an offered resignation when it gives at least what ``color``
        expects to win by playing on."""
        resigner, offered = state.resign_offer
        if offered >= state.max_resign_level(resigner):
            return True  # everything the position could still give
        my_away = _match_scores(match_state, color)[0]
        if my_away is not None and offered * state.cube_value >= my_away:
            return True  # wins the match
        jacoby_single = state.rules.jacoby and not state.cube_turned
        value = 1 if jacoby_single else offered
        probs = self._probs(state, match_state, color)
        if probs is None:
            return state.position.off(resigner) > 0 and offered >= 1
        win, gw, bw, gl, bl = probs
        expected = 2 * win - 1 if jacoby_single else 2 * win - 1 + gw - gl + bw - bl
        return value >= expected - self._noise(state.position, "resign")

    def _probs(self, state, match_state, color):
        """Cubeless (win, gammon win, bg win, gammon loss, bg loss) for ``color``."""
        if not sage.available():
            return None
        on_roll = state.position.turn
        analysis = sage.cube_action(
            state.position, on_roll, sage.match_args(state, match_state, on_roll), self.level.cube_ply
        )
        p = analysis.probs
        probs = [p.win, p.gammon_win, p.backgammon_win, p.gammon_loss, p.backgammon_loss]
        if on_roll != color:
            probs = [1.0 - probs[0], probs[3], probs[4], probs[1], probs[2]]
        return probs


_BOTS: dict = {}


def get_bot(level) -> Bot:
    """The :class:`Bot` for a level name (or :class:`Level`)."""
    lv = get_level(level)
    bot = _BOTS.get(lv.name)
    if bot is None or bot.level != lv:
        bot = _BOTS[lv.name] = Bot(lv)
    return bot
