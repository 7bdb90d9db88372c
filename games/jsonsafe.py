"""JSON from clients, parsed with limits before anything else sees it.

One helper for the bot API's bodies and the websockets' messages: a size limit, a depth
limit checked *before* parsing (Python's parser recurses, so 15,000 nested brackets
would raise RecursionError deep inside it), and text that the database can store (no
unpaired surrogates anywhere in the document). Every refusal is a :class:`BadInput` with
a stable code.

>>> parse('{"t": "ping"}', max_bytes=100)
{'t': 'ping'}
>>> parse('[' * 50 + ']' * 50, max_bytes=1000).__class__.__name__
Traceback (most recent call last):
...
games.jsonsafe.BadInput: too_deep: JSON nested deeper than 16 levels.
"""

from __future__ import annotations

import json
import re
from django.utils.translation import gettext

MAX_DEPTH = 16
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_LONE_SURROGATE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                             r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")


class BadInput(ValueError):
    """A client's JSON refused before parsing or right after: ``code`` is stable."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


def depth(text: str) -> int:
    """The deepest nesting of brackets outside strings."""
    deepest = level = 0
    for ch in _STRINGS.sub('""', text):
        if ch in "[{":
            level += 1
            if level > deepest:
                deepest = level
        elif ch in "]}":
            level -= 1
    return deepest


def parse(text, *, max_bytes: int, max_depth: int = MAX_DEPTH):
    """Parse ``text`` (str or UTF-8 bytes) or raise :class:`BadInput`: ``too_large``,
    ``bad_json`` (not JSON, not UTF-8), ``too_deep``, ``bad_text`` (an unpaired surrogate)."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > max_bytes:
            raise BadInput("too_large", gettext("At most %(max_bytes)s bytes.") % {"max_bytes": max_bytes})
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput("bad_json", gettext("The body is not UTF-8 text.")) from None
    elif not isinstance(text, str):
        raise BadInput("bad_json", gettext("Send JSON text."))
    elif len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise BadInput("too_large", gettext("At most %(max_bytes)s bytes.") % {"max_bytes": max_bytes})
    # Cheap first: a document with few brackets cannot be deep (the usual case).
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise BadInput("too_deep", gettext("JSON nested deeper than %(max_depth)s levels.") % {"max_depth": max_depth})
    if "\\u" in text and _LONE_SURROGATE.search(text):
        raise BadInput("bad_text", gettext("The JSON holds an unpaired surrogate (U+D800 to U+DFFF), which is not text."))
    try:
        return json.loads(text)
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise BadInput("too_deep", gettext("JSON nested deeper than %(max_depth)s levels.") % {"max_depth": max_depth}) from None
    except ValueError:
        raise BadInput("bad_json", gettext("That is not valid JSON.")) from None
