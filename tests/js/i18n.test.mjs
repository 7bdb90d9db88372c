// The browser's i18n face (static/js/lib/i18n.mjs): Django's catalog when the page has it, the
// English source otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gettext, interpolate, ngettext } from '../../static/js/lib/i18n.mjs';

test('without a catalog the source comes back, interpolated as Django does', () => {
  delete globalThis.django;
  assert.equal(gettext('Your turn'), 'Your turn');
  assert.equal(ngettext('%s point', '%s points', 2), '%s points');
  assert.equal(interpolate('%(name)s doubles to %(value)s', { name: 'Ann', value: 4 }, true), 'Ann doubles to 4');
  const values = [3, 5];
  assert.equal(interpolate('%s-%s', values), '3-5');
  assert.deepEqual(values, [3, 5]); // the caller's list is left alone
});

test('with the catalog its translations are used', () => {
  globalThis.django = { gettext: (s) => ({ 'Your turn': 'Sıra sende' }[s] || s), ngettext: (s, p, n) => (n === 1 ? s : p) };
  try {
    assert.equal(gettext('Your turn'), 'Sıra sende');
    assert.equal(gettext('Roll'), 'Roll');
  } finally {
    delete globalThis.django;
  }
});

test('a signed number keeps its sign in front in a right-to-left page only', async () => {
  const { ltrNumbers } = await import('../../static/js/lib/i18n.mjs');
  const text = 'الحظ: −0.130 · +0.241 EMG (−0.064), 24/23 13/8, 0-0, x-1';
  assert.equal(ltrNumbers(text), text);  // no page: as it is
  globalThis.document = { documentElement: { dir: 'rtl', lang: 'ar' } };
  try {
    assert.equal(ltrNumbers(text),
      'الحظ: \u2066−0.130\u2069 · \u2066+0.241\u2069 EMG (\u2066−0.064\u2069), 24/23 13/8, 0-0, x-1');
    globalThis.document.documentElement.dir = 'ltr';
    assert.equal(ltrNumbers(text), text);
  } finally {
    delete globalThis.document;
  }
});
