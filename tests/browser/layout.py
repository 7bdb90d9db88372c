"""What a page in another language is checked for, in the browser: text drawn over other text,
elements reaching out of the page sideways, and text left in English (docs/TRANSLATING.md)."""

import re

# Every visible text node's line boxes; pairs of different nodes whose boxes intersect.
OVERLAPS = """() => {
  const boxes = [];
  // the part of the page a text can be seen in: its scrolling boxes clip it (a move list
  // scrolled to its end hides its first lines under its heading; they overlap nothing seen)
  const clipOf = el => {
    let c = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
    for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      c = { left: Math.max(c.left, b.left), top: Math.max(c.top, b.top), right: Math.min(c.right, b.right), bottom: Math.min(c.bottom, b.bottom) };
    }
    return c;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    // text in a closed <details> (the header's "your turn" list) is not shown
    if (!node.textContent.trim() || !el || el.closest('script, style, option, .sr-only, [hidden], details:not([open]) > :not(summary)')
        || getComputedStyle(el).visibility === 'hidden') continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const c = clipOf(el);
    for (const q of range.getClientRects()) {
      const r = { left: Math.max(q.left, c.left), top: Math.max(q.top, c.top), right: Math.min(q.right, c.right), bottom: Math.min(q.bottom, c.bottom) };
      if (r.right - r.left > 1 && r.bottom - r.top > 1) boxes.push({ r, text: node.textContent.trim().slice(0, 30) });
    }
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


# Every visible text whose colour stands out from its background by less than WCAG AA asks
# (4.5:1, or 3:1 for large text: 24px, or bold from 18.66px), as "tag#id.class "text" ratio".
# The background is the nearest one painted at least half opaque; a disabled control's text is
# exempt, as WCAG exempts it.
LOW_CONTRAST = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const out = [], seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement, text = node.textContent.trim();
    if (!text || !el || seen.has(el) || el.closest('script, style, option, svg, .sr-only, [hidden], details:not([open]) > :not(summary), :disabled')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    const range = document.createRange(); range.selectNodeContents(node);
    if (![...range.getClientRects()].some(r => r.width > 1 && r.height > 1)) continue;
    seen.add(el);
    let bg = [255, 255, 255];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length < 4 || c[3] > 0.5) { bg = c; break; }
    }
    const a = lum(rgb(style.color)), b = lum(bg), ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize), large = size >= 24 || (+style.fontWeight >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) {
      const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
      out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls} "${text.slice(0, 30)}" ${ratio.toFixed(2)}`);
    }
  }
  return out;
}"""

# Each element's painted colours, in document order: two schemes that should look the same
# (the dark setting, and "as my device" on a dark device) give the same list. The board's hidden
# warm-up sprites (motion_player.mjs), there for a moment after the page loads, are not counted.
COLOURS = """() => [...document.body.querySelectorAll('*')].filter(e => !e.closest('script, style, .warm-up')).map(e => {
  const s = getComputedStyle(e);
  return [e.tagName, s.color, s.backgroundColor, s.borderTopColor, s.fill, s.stroke].join(' ');
})"""

# The visible texts under ``selector`` that break inside a word: more line boxes than words.
WORDS_BROKEN = """selector => [...document.querySelectorAll(selector)].filter(e => e.offsetParent).filter(e => {
  const range = document.createRange(); range.selectNodeContents(e);
  const lines = new Set([...range.getClientRects()].filter(r => r.width > 1).map(r => Math.round(r.top)));
  return lines.size > e.textContent.trim().split(/\\s+/).length;
}).map(e => e.textContent.trim())"""
