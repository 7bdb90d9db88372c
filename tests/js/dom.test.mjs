// The pages' shared helpers (static/js/lib/dom.mjs) that run without a page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { esc, setHTML } from '../../static/js/lib/dom.mjs';

/** An element that counts how often its markup is replaced. */
function element() {
  let html = '', writes = 0;
  return { get innerHTML() { return html; }, set innerHTML(v) { html = v; writes += 1; }, get writes() { return writes; } };
}

test('setHTML writes markup only when it differs from what it wrote last', () => {
  const el = element();
  assert.equal(setHTML(el, '<button>Take</button>'), true);
  assert.equal(setHTML(el, '<button>Take</button>'), false);  // the same: the button pressed stays
  assert.equal(el.writes, 1);
  assert.equal(setHTML(el, '<button>Drop</button>'), true);
  assert.equal(el.innerHTML, '<button>Drop</button>');
  assert.equal(setHTML(el, ''), true);
  assert.equal(el.writes, 3);
});

test('setHTML keeps one memory per element', () => {
  const a = element(), b = element();
  setHTML(a, 'x');
  assert.equal(setHTML(b, 'x'), true);
  assert.equal(a.writes + b.writes, 2);
});

test('esc makes text safe in an element and in a quoted attribute', () => {
  assert.equal(esc(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  assert.equal(esc(null), '');
});
