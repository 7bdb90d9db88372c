// The game page's clock texts (static/js/game_clocks.mjs): the correspondence clock's words and
// durations come from the catalogue, in the page's language.
import test from 'node:test';
import assert from 'node:assert/strict';
import { clockText } from '../../static/js/game_clocks.mjs';
import { fmtDays } from '../../static/js/texts.mjs';

const HOUR = 3600e3, DAY = 24 * HOUR;
const corr = (running, deadline) => ({ status: 'playing', clock: { correspondence: true, running, deadline,
  white: 2 * DAY + 5 * HOUR, black: 3 * DAY } });

test('a correspondence clock in English: the bank, the time left, time up', () => {
  delete globalThis.django;
  const now = Date.parse('2026-11-27T10:00:00Z');
  assert.equal(fmtDays(2 * DAY + 5 * HOUR), '2d 5h');
  assert.equal(fmtDays(5 * HOUR + 7 * 60e3), '5h 7m');
  assert.equal(fmtDays(7 * 60e3), '7m');
  assert.equal(clockText(corr('black', null), 'white', 0, now), 'bank 2d 5h');
  assert.equal(clockText(corr('white', '2026-11-28T12:30:00Z'), 'white', 0, now), '1d 2h left');
  assert.equal(clockText(corr('white', '2026-11-27T09:00:00Z'), 'white', 0, now), 'time is up');
});

test('a correspondence clock in the catalogue\'s language', () => {
  const words = { 'bank %(time)s': 'Zeitkonto %(time)s', '%(time)s left': 'noch %(time)s', 'time is up': 'Zeit abgelaufen',
    '%(days)sd %(hours)sh': '%(days)s T. %(hours)s Std.' };
  globalThis.django = {
    gettext: (s) => words[s] || s,
    pgettext: (ctx, s) => (ctx === 'a short duration' && words[s]) || s,
  };
  try {
    const now = Date.parse('2026-11-27T10:00:00Z');
    assert.equal(clockText(corr('black', null), 'white', 0, now), 'Zeitkonto 2 T. 5 Std.');
    assert.equal(clockText(corr('white', '2026-11-28T12:30:00Z'), 'white', 0, now), 'noch 1 T. 2 Std.');
    assert.equal(clockText(corr('white', '2026-11-27T09:00:00Z'), 'white', 0, now), 'Zeit abgelaufen');
  } finally {
    delete globalThis.django;
  }
});
