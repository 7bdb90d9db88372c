"""What a page in another language is checked for, in the browser: text drawn over other text,
elements reaching out of the page sideways, and text left in English (docs/TRANSLATING.md)."""

import re

# Every visible text node's line boxes; pairs of different nodes whose boxes intersect.
OVERLAPS = """() => {
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    // text in a closed <details> (the header's "your turn" list) is not shown
    if (!node.textContent.trim() || !el || el.closest('script, style, option, .sr-only, [hidden], details:not([open]) > :not(summary)')
        || getComputedStyle(el).visibility === 'hidden') continue;
    const range = document.createRange(); range.selectNodeContents(node);
    for (const r of range.getClientRects()) if (r.width > 1 && r.height > 1) boxes.push({ r, text: node.textContent.trim().slice(0, 30) });
  }
  const hits = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i].r, b = boxes[j].r;
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 2 && h > 2) hits.push([boxes[i].text, boxes[j].text]);
  }
  return hits;
}"""


# The elements that reach out of the page sideways (the page would scroll), the innermost first.
WIDER = """() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > width + 1 || r.left < -1) && !el.closest('.sr-only, [hidden]'))
      out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className}: ${Math.round(r.left)}-${Math.round(r.right)}`);
  }
  return document.documentElement.scrollWidth <= width ? []
    : out.length ? out.reverse().slice(0, 6) : [`scrollWidth ${document.documentElement.scrollWidth} > ${width}`];
}"""


# Every visible text of the page (the same nodes as OVERLAPS), trimmed.
TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement, text = node.textContent.trim();
    if (!text || !el || el.closest('script, style, option, .sr-only, [hidden], details:not([open]) > :not(summary)')
        || getComputedStyle(el).visibility === 'hidden') continue;
    const range = document.createRange(); range.selectNodeContents(node);
    if ([...range.getClientRects()].some(r => r.width > 1 && r.height > 1)) out.push(text);
  }
  return out;
}"""

_WORD = re.compile(r"[A-Za-z]{3,}")


def english_left(texts: list, english: list, keep=()) -> list:
    """The texts of a page in another language that read as on the same page in English: a
    Latin word of three letters or more, the same text on both (names, notation and the
    terms in ``keep`` are not words to translate)."""
    same = set(english)
    left = []
    for text in texts:
        words = [w for w in _WORD.findall(text) if w not in keep]
        if text in same and words:
            left.append(text)
    return sorted(set(left))
