"""Finding Python-worded text a person reads that is not marked for translation (docs/TRANSLATING.md):
the message of every refusal (a service error's, the bot API's), of every flash message and the
texts given to a page's ``render`` must be
a ``gettext`` call (or a value passed on, such as ``exc.message``), never a literal or an f-string
left in English, and a refusal always says its message (the fallback would be its code's words)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.i18n.scan import ROOT

# Error classes and the position of their message argument.
ERRORS = {"ServiceError": 1, "BadRequest": 1, "Forbidden": 1, "NotFound": 1, "Conflict": 1, "Limited": 1,
          "ApiError": 2, "error_response": 2, "BadInput": 1,
          # the engine's refusals (pure: marked with gettext_noop, values in params=, worded when read)
          "EngineError": 1, "IllegalPlay": 1, "IllegalAction": 1, "InvalidPlay": 1, "InvalidPosition": 1,
          "NotationError": 1, "IdError": 1, "TournamentError": 1,
          # the analysis' and the match files' (pure too: gettext_noop, params=, worded when read)
          "AnalysisError": 1, "MatImportError": 1, "NotExportable": 0, "MatRefused": 1}
REFUSALS = {**ERRORS, "valid_id": 2, "_int": 2}  # and the functions that hand a message to one
FLASHES = {"error", "success", "info", "warning"}  # messages.x(request, text); a socket's self.error(code, text)
MARKERS = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy",
           "npgettext"}
NOT_SWEPT = {"bots", "migrations"}  # pure packages not swept yet
_SENTENCE = re.compile(r"[^\W\d_]{2,}[ ,’'][^\W\d_]")


def _name(func) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _unmarked(expr) -> list:
    """Literals with words in ``expr`` outside a gettext call."""
    if isinstance(expr, ast.Call) and _name(expr.func) in MARKERS:
        return []
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod) and not _unmarked(expr.left):
        return []  # gettext("... %(name)s ...") % {...}: the values are not text to translate
    if isinstance(expr, ast.JoinedStr):
        words = "".join(v.value for v in expr.values if isinstance(v, ast.Constant))
        return [ast.unparse(expr)] if _SENTENCE.search(words) else []
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value] if _SENTENCE.search(expr.value) else []
    return [text for child in ast.iter_child_nodes(expr) for text in _unmarked(child)]


def python_messages(path: Path) -> list:
    """``"line: text"`` of every refusal or flash message in ``path`` that is not marked."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        message = None
        if name in REFUSALS:
            message = next((k.value for k in node.keywords if k.arg == "message"), None)
            if message is None and len(node.args) > REFUSALS[name]:
                message = node.args[REFUSALS[name]]
            if message is None and name in ERRORS and (node.args or node.keywords):
                found.append(f"{node.lineno}: {name}(...) without a message")
                continue
        elif name == "render" and len(node.args) > 2 and isinstance(node.args[2], ast.Dict):
            message = node.args[2]  # a page's context: its titles and texts
        elif (name in FLASHES and isinstance(node.func, ast.Attribute)
              and _name(node.func.value) in ("messages", "self") and len(node.args) > 1):
            message = node.args[1]
        if message is not None:
            found += [f"{node.lineno}: {text}" for text in _unmarked(message)]
    return found


def python_modules() -> list:
    return sorted(p for p in (ROOT / "games").rglob("*.py")
                  if not NOT_SWEPT & set(p.relative_to(ROOT / "games").parts[:-1]))
