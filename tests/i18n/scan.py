"""Finding text a person reads that is not marked for translation, in the templates and in the
browser's modules (docs/TRANSLATING.md). Heuristic on purpose, strict enough to catch a new
sentence: a template's text between tags or in a title/placeholder/aria-label/alt attribute
outside {% translate %} / {% blocktranslate %}; a module's string literal with words given to
textContent, title, placeholder, aria-label, alert/confirm or a message field."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

WORD = re.compile(r"[^\W\d_]{2,}")  # two letters of any script
_BLOCKS = [re.compile(p, re.S) for p in (
    r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", r"\{#.*?#\}", r"<script\b.*?</script>", r"<style\b.*?</style>",
    r"\{%\s*blocktrans(?:late)?\b.*?\{%\s*endblocktrans(?:late)?\s*%\}", r"\{%\s*trans(?:late)?\s.*?%\}",
    r"\{\{.*?\}\}", r"\{%.*?%\}")]
_ATTR = re.compile(r"""\b(title|placeholder|aria-label|alt)\s*=\s*"([^"]*)\"""")
_TEXT = re.compile(r">([^<>]+)<")


def template_strings(path: Path) -> list:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".txt":  # e-mail subjects: the whole file is text
        text = f">{text}<"
    found = []
    for pattern in _BLOCKS[:6]:  # comments, scripts, styles, then what is marked already
        text = pattern.sub(" ", text)
    attrs = [(m.group(1), m.group(2)) for m in _ATTR.finditer(text)]
    for pattern in _BLOCKS[6:]:
        text = pattern.sub(" ", text)
    for name, value in attrs:
        cleaned = value
        for pattern in _BLOCKS[6:]:
            cleaned = pattern.sub(" ", cleaned)
        if WORD.search(cleaned):
            found.append(f'{name}="{value.strip()}"')
    for m in _TEXT.finditer(text):
        chunk = " ".join(m.group(1).split())
        chunk = re.sub(r"&\w+;|&#\d+;", " ", chunk)
        if WORD.search(chunk):
            found.append(chunk)
    return found


_LITERAL = re.compile(r"""(["'`])((?:\\.|(?!\1)[^\\])*)\1""")
_SENTENCE = re.compile(r"[^\W\d_]{2,}[ ,’'][^\W\d_]")  # two words in a row
# An i18n call, its string literals taken whole (a msgid may hold parentheses: "Resigns (%(kind)s)").
_QUOTED = r"""'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`"""
_PLAIN = rf"""(?:{_QUOTED}|[^()'"`])"""
_CALL = re.compile(rf"\b(?:_|gettext|ngettext|pgettext|interpolate)\((?:{_PLAIN}|\({_PLAIN}*\))*\)")
_CODE_LIKE = re.compile(r"^[\w\s.#:\[\]=>*()-]*$")  # selectors, classes, keys


def module_strings(path: Path) -> list:
    """String literals that read as words to a person, outside i18n calls."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        code = line.strip()
        if code.startswith(("//", "*", "/*", "import ", "export {")) or "console." in code:
            continue
        code = _CALL.sub(" ", code)
        for m in _LITERAL.finditer(code):
            literal = re.sub(r"\$\{[^}]*\}", " ", m.group(2)).strip()
            literal = re.sub(r"<[^>]*>?|^[^<]*>", " ", literal).strip() if "<" in literal or ">" in literal else literal
            if not _SENTENCE.search(literal):
                continue
            if _CODE_LIKE.match(literal) and (literal.islower() or "-" in literal) and not literal.endswith((".", "?", "!")):
                continue  # "button small", "lobby-table empty": classes, not words
            found.append(literal)
    return found


def templates() -> list:
    return sorted(p for p in (ROOT / "templates").rglob("*") if p.suffix in (".html", ".txt"))


def modules() -> list:
    return sorted((ROOT / "static" / "js").rglob("*.mjs"))
