"""Text that reaches the database: one check for every field people type.

PostgreSQL refuses NUL in text and no database can store an unpaired surrogate (JSON can
carry ``\\u0000`` and ``\\ud800``), so every name, description and chat line goes through
:func:`clean_text` first and is refused with a stable code, not a server error. Names get
stricter rules (:func:`clean_name`): no bidirectional overrides or invisible characters
that let one name pose as another, and a comparison key (NFKC + case folding) so two
players cannot take names that look the same.

>>> clean_text("  hello   there ", field="chat", code="bad_chat")
'hello there'
>>> name_key("Ｂｏｂ") == name_key("bob")
True
"""

from __future__ import annotations

import re
import unicodedata

from games.errors import BadRequest
from django.utils.translation import gettext

# Characters that change how text around them is shown: bidirectional embeddings,
# overrides and isolates, zero-width joiners and spaces, the BOM, and other format (Cf)
# characters. Refused in names; in chat only the bidirectional controls are refused.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(value, *, field: str, code: str, max_length: int | None = None, collapse: bool = True,
               allow_empty: bool = False) -> str:
    """``value`` as stored text, or :class:`~games.errors.BadRequest` with ``code``.

    Refuses non-strings, NUL and other control characters (tab and newline are spaces),
    unpaired surrogates, bidirectional controls, and text longer than ``max_length``.
    ``collapse`` folds runs of whitespace into one space and trims.
    """
    if not isinstance(value, str):
        raise BadRequest(code, gettext("'%(field)s' must be text.") % {"field": field})
    if _SURROGATE.search(value):
        raise BadRequest(code, gettext("'%(field)s' is not valid Unicode (an unpaired surrogate).") % {"field": field})
    if "\x00" in value:
        raise BadRequest(code, gettext("'%(field)s' may not contain the NUL character.") % {"field": field})
    if collapse:
        value = " ".join(value.split())
    for ch in value:
        if ch in BIDI_CONTROLS:
            raise BadRequest(code, gettext("'%(field)s' may not contain direction-changing characters (U+%(value)s).")
                    % {"field": field, "value": format(ord(ch), '04X')})
        if unicodedata.category(ch) == "Cc" and ch not in "\n\t":
            raise BadRequest(code, gettext("'%(field)s' may not contain control characters (U+%(value)s).")
                    % {"field": field, "value": format(ord(ch), '04X')})
    if not value and not allow_empty:
        raise BadRequest(code, gettext("'%(field)s' may not be empty.") % {"field": field})
    if max_length is not None and len(value) > max_length:
        raise BadRequest(code, gettext("'%(field)s' is at most %(max_length)s characters.")
                % {"field": field, "max_length": max_length})
    return value


# What marks the site's own bots and the agents: nobody else may wear it.
RESERVED_MARKS = ("house bot", "(bot)", "[bot]", "computer", "gnubg", "admin", "moderator")


def name_key(name: str) -> str:
    """The comparison key of a display name: NFKC, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def clean_name(value, *, field: str = "display_name", code: str = "bad_name", max_length: int = 40,
               reserved_ok: bool = False) -> str:
    """A display name: :func:`clean_text` plus no invisible or format characters (Unicode
    category Cf: zero-width spaces and joiners, the BOM...), no combining mark first, and none
    of :data:`RESERVED_MARKS` or parentheses (which mark house bots) unless ``reserved_ok``."""
    value = clean_text(value, field=field, code=code, max_length=max_length)
    for ch in value:
        if unicodedata.category(ch) in ("Cf", "Co", "Cn", "Zl", "Zp"):
            raise BadRequest(code, gettext("'%(field)s' may not contain invisible characters (U+%(value)s).")
                    % {"field": field, "value": format(ord(ch), '04X')})
    if unicodedata.category(value[0]).startswith("M"):
        raise BadRequest(code, gettext("'%(field)s' may not start with a combining mark.") % {"field": field})
    key = name_key(value)
    if len(key) > 160:
        raise BadRequest(code, gettext("'%(field)s' is too long once normalised.") % {"field": field})
    if not reserved_ok:
        if "(" in value or ")" in value or any(mark in key for mark in RESERVED_MARKS):
            raise BadRequest(code, gettext("'%(field)s' may not contain parentheses or words that mark the site's own players (house bot, computer, admin...).")
                    % {"field": field})
    return value
