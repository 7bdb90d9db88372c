"""Typed errors of the rules engine.

Every error is a :class:`ValueError` carrying a stable machine-readable ``code``
(used on the wire by the websocket protocol and the bot API) and a ``message`` a
player can read.

>>> try:
...     raise IllegalPlay("blocked_point", "Point 6 is blocked.")
... except ValueError as exc:
...     print(exc.code, "-", exc.message)
blocked_point - Point 6 is blocked.
"""

from __future__ import annotations


def gettext_noop(text: str) -> str:
    """Marks a message for translation (``make messages`` collects it); the engine imports no
    Django, so the words are translated when read (:attr:`EngineError.message`)."""
    return text


def _as_is(text: str) -> str:
    return text


#: How a message is put into the reader's words: the site sets Django's ``gettext`` here
#: (``games.apps``); the engine alone keeps its English.
translate = _as_is


def word(template: str, params: dict | None = None) -> str:
    """``template`` (a marked English text) in the reader's words, ``params`` put in after the
    translation. A value that is itself a refusal or a :class:`Message` is worded too (its
    ``str`` is read now, in the same language)."""
    text = translate(template)
    if not params:
        return text
    params = {k: v.worded if isinstance(v, Message) else v for k, v in params.items()}
    try:
        return text % params
    except (KeyError, ValueError, TypeError):  # a translation that lost a placeholder: the English
        return template % params


class Message(str):
    """A marked English text with its values kept apart, for a line that is stored or sent on
    and worded later, in the reader's language (a long job's progress line): it reads as the
    English line, ``template`` and ``params`` give the rest, :attr:`worded` words it now.

    >>> m = Message(gettext_noop("decision %(done)s of %(total)s"), {"done": 3, "total": 40})
    >>> m, m.template, m.params["total"]
    ('decision 3 of 40', 'decision %(done)s of %(total)s', 40)
    """

    template: str
    params: dict

    def __new__(cls, template: str, params: dict | None = None):
        params = dict(params or {})
        self = super().__new__(cls, template % params if params else template)
        self.template, self.params = template, params
        return self

    @property
    def worded(self) -> str:
        return word(self.template, self.params)


class EngineError(ValueError):
    """Base class: a rule was broken or an input could not be understood.

    ``message`` is worded when read, in the active language: the marked English ``template``
    translated, then ``params`` put in (``"Point %(point)s is blocked."``)."""

    default_code = "engine_error"

    def __init__(self, code: str | None = None, message: str = "", *, params: dict | None = None, **details):
        self.code = code or self.default_code
        self.template = message or self.code.replace("_", " ")
        self.params = params or {}
        self.details = details
        super().__init__(self.template % self.params if self.params else self.template)

    @property
    def message(self) -> str:
        return word(self.template, self.params)

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict:
        """The wire form: ``{"code": ..., "message": ...}`` (plus any details)."""
        out = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class InvalidPosition(EngineError):
    """A position that cannot exist (wrong checker count, both colours on a point...)."""

    default_code = "invalid_position"


class InvalidPlay(EngineError):
    """A submitted play that is not a play at all: not a list of steps, a step that names no
    point (syntax; python-chess's ``InvalidMoveError``). Codes ``bad_play``, ``bad_step``,
    ``too_many_steps``."""

    default_code = "bad_play"


class IllegalPlay(EngineError):
    """A well-formed checker play that the rules refuse for the position and dice
    (python-chess's ``IllegalMoveError``)."""

    default_code = "illegal_play"


class IllegalAction(EngineError):
    """A game action (roll, double, take, resign...) not allowed in this state."""

    default_code = "illegal_action"


class NotationError(EngineError):
    """Move notation that cannot be parsed."""

    default_code = "bad_notation"


class IdError(EngineError):
    """A GNU Backgammon Position ID or Match ID that cannot be decoded."""

    default_code = "bad_id"
