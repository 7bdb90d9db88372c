"""The lobby in Arabic, Turkish and Greek in a real browser, on a phone and a desktop: the page's
direction, its text in the language, and no text drawn over other text or out of the page.
Screenshots go to artifacts/screenshots/ for review."""

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.helpers import create_match, sign_up

pytestmark = pytest.mark.browser

# Every visible text node's line boxes; pairs of different nodes whose boxes intersect.
OVERLAPS = """() => {
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    // text in a closed <details> (the header's "your turn" list) is not shown
    if (!node.textContent.trim() || !el || el.closest('script, style, option, .sr-only, [hidden], details:not([open]) > :not(summary)')) continue;
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


@pytest.mark.parametrize("code, direction, heading", [("ar", "rtl", "مبارياتك"), ("tr", "ltr", "Oyunların"),
                                                      ("el", "ltr", "Οι παρτίδες σου")])
def test_the_lobby_reads_in_the_players_language_on_a_phone_and_a_desktop(site_server, new_page, screenshots,
                                                                          code, direction, heading):
    base, _ = site_server
    page = new_page()
    page.context.set_extra_http_headers({"Accept-Language": code})
    sign_up(page, base, f"lobby{code}")
    create_match(page, base, length=3, private=False)  # "Your games" and an open match to show
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.goto(f"{base}/")
        page.locator("#open-matches tr[data-match]").first.wait_for()
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [code, direction]
        assert page.locator("#mine-h").inner_text() == heading
        assert page.evaluate(WIDER) == [], name
        assert page.evaluate(OVERLAPS) == [], name
        page.screenshot(path=str(screenshots / f"lobby-{code}-{name}.png"), full_page=True)
