"""The tournament core's names for its matches and bracket slots, read back so that a reader's
language can word them.

The core names every pairing and slot in English ("Semi-final", "Round 2, table 3", "winner of
M-R1-1"); those names are stored (a tournament's state, ``TournamentMatch.label``) and sent on
(the "your match is ready" notice), so they are never worded in the language of whoever made
them. :func:`parse` reads a name back as a marked English template and its values, worded when
read (``games.selectors.tournaments.label_words``); a name it does not know (none today) is
shown as it is.

>>> parse("Consolation semi-final"), parse("Round 2, table 3"), parse("winner of M-R1-1")
(('Consolation semi-final', {}), ('Round %(round)s, table %(table)s', {'round': 2, 'table': 3}), \
('winner of %(match)s', {'match': 'M-R1-1'}))
>>> parse("Group B, round 2")[1], parse("no such name")
({'group': 'B', 'round': 2}, None)
"""

from __future__ import annotations

import re

from games.engine.errors import gettext_noop


#: Every name the core gives (bracket.round_label, double.losers_nodes and double_nodes,
#: knockout.consolation_nodes, roundrobin, swiss, arena, bracket.describe).
TEMPLATES = (
    gettext_noop("Final"), gettext_noop("Semi-final"), gettext_noop("Quarter-final"), gettext_noop("Round %(round)s"),
    gettext_noop("Consolation final"), gettext_noop("Consolation semi-final"),
    gettext_noop("Consolation quarter-final"), gettext_noop("Consolation round %(round)s"),
    gettext_noop("Winners' final"), gettext_noop("Winners' semi-final"), gettext_noop("Winners' quarter-final"),
    gettext_noop("Winners' round %(round)s"),
    gettext_noop("Losers' final"), gettext_noop("Losers' round %(round)s"),
    gettext_noop("Grand final"), gettext_noop("Grand final, reset"),
    gettext_noop("Group %(group)s, round %(round)s"),
    gettext_noop("Round %(round)s, table %(table)s"), gettext_noop("Round %(round)s, bye"),
    gettext_noop("Arena match %(number)s"),
    gettext_noop("seed %(seed)s"), gettext_noop("winner of %(match)s"), gettext_noop("loser of %(match)s"),
)

_VALUES = {"round": r"\d+", "table": r"\d+", "number": r"\d+", "seed": r"\d+", "group": r"[A-Z0-9]+",
           "match": r"[A-Za-z0-9-]+"}
_NUMBERS = {"round", "table", "number", "seed"}


def _pattern(template: str):
    parts = re.split(r"%\((\w+)\)s", template)
    text = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>{_VALUES[p]})" for i, p in enumerate(parts))
    return re.compile(text)


_PATTERNS = tuple((_pattern(t), t) for t in TEMPLATES)


def parse(label: str):
    """``(template, values)`` of a name the core gives, or None."""
    for pattern, template in _PATTERNS:
        found = pattern.fullmatch(label or "")
        if found:
            return template, {k: int(v) if k in _NUMBERS else v for k, v in found.groupdict().items()}
    return None
