"""The bot author's guide: docs/BOT_API.md, rendered by a tiny, safe Markdown subset.

Supported: ``#`` headings, paragraphs, fenced code blocks, ``-``/``1.`` lists, pipe
tables, ``inline code``, **bold**, *italic* and [links](url). Everything is HTML-escaped
first, and link targets are limited to http(s), relative and ``#`` anchors.
"""

from __future__ import annotations

import html as _html
import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings

GUIDE = Path(settings.BASE_DIR) / "docs" / "BOT_API.md"


def text() -> str:
    return GUIDE.read_text(encoding="utf-8")


def title() -> str:
    for line in text().splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return "Bot API"


def html() -> str:
    return _render_cached(text())


@lru_cache(maxsize=4)
def _render_cached(source: str) -> str:
    return render(source)


def slug(value: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")


_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*([^*\s][^*]*)\*(?![*\w])")


def inline(raw: str) -> str:
    """Escape, then apply code spans (left untouched inside), links, bold and italic."""
    parts = _CODE.split(raw)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{_html.escape(part)}</code>")
            continue
        s = _html.escape(part, quote=True)

        def link(m):
            href = _html.unescape(m.group(2))
            if not re.match(r"^(https?://|/|#)", href):
                return m.group(0)
            return f'<a href="{_html.escape(href, quote=True)}">{m.group(1)}</a>'

        s = _LINK.sub(link, s)
        s = _BOLD.sub(r"<strong>\1</strong>", s)
        s = _ITALIC.sub(r"<em>\1</em>", s)
        out.append(s)
    return "".join(out)


def render(source: str) -> str:
    lines = source.splitlines()
    out: list = []
    para: list = []
    i = 0

    def flush():
        if para:
            out.append(f"<p>{inline(' '.join(para))}</p>")
            para.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            lang = stripped[3:].strip()
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                body.append(lines[i])
                i += 1
            cls = f' class="language-{_html.escape(slug(lang))}"' if lang else ""
            out.append(f"<pre><code{cls}>{_html.escape(chr(10).join(body))}</code></pre>")
            i += 1
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        if heading:
            flush()
            level, title_text = len(heading.group(1)), heading.group(2).strip()
            out.append(f'<h{level} id="{slug(title_text)}">{inline(title_text)}</h{level}>')
            i += 1
            continue
        if stripped.startswith("|") and i + 1 < len(lines) and re.match(r"^\s*\|[\s:|-]+\|\s*$", lines[i + 1]):
            flush()
            cells = lambda row: [c.strip() for c in row.strip().strip("|").split("|")]  # noqa: E731
            head = cells(line)
            rows = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            table = ["<table>", "<thead><tr>" + "".join(f"<th>{inline(c)}</th>" for c in head) + "</tr></thead>",
                     "<tbody>"]
            for row in rows:
                table.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>")
            table.append("</tbody></table>")
            out.append("".join(table))
            continue
        item = re.match(r"^(\s*)([-*]|\d+\.)\s+(.*)$", line)
        if item:
            flush()
            tag = "ol" if item.group(2)[0].isdigit() else "ul"
            items = []
            while i < len(lines):
                m = re.match(r"^(\s*)([-*]|\d+\.)\s+(.*)$", lines[i])
                if m:
                    items.append(m.group(3))
                elif lines[i].startswith("  ") and lines[i].strip() and items:
                    items[-1] += " " + lines[i].strip()  # continuation line
                else:
                    break
                i += 1
            out.append(f"<{tag}>" + "".join(f"<li>{inline(t)}</li>" for t in items) + f"</{tag}>")
            continue
        if not stripped:
            flush()
        else:
            para.append(stripped)
        i += 1
    flush()
    return "\n".join(out)
