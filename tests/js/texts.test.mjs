import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtClock, resultText, scoreText } from '../../static/js/texts.mjs';

const nameOf = c => ({ white: 'Ann', black: 'Ben' })[c];

test('results say who won, how, and never "0 points (tie)" for an abort', () => {
  assert.equal(resultText({ winner: 'black', points: 2, kind: 'gammon', cubeValue: 1, reason: 'bearoff' }, nameOf),
    'Ben wins 2 points (gammon).');
  assert.equal(resultText({ winner: 'white', points: 1, kind: 'single', cubeValue: 1, reason: 'suspended' }, nameOf),
    'Ann wins 1 point (single, by an administrator’s suspension (a forfeit)).');
  assert.equal(resultText({ winner: null, points: 0, kind: 'tie', cubeValue: 1, reason: 'aborted' }, nameOf),
    'Game aborted: no result.');
});

test('scores and clocks', () => {
  assert.equal(scoreText({ score: [1, 2] }, { length: 5 }, nameOf), 'Score: Ann 1 – 2 Ben (to 5)');
  assert.equal(fmtClock(61001), '1:02');
  assert.equal(fmtClock(null), '');
});

test('a match awarded by forfeit: who forfeited, no "You won the match!", no points for the game', async () => {
  const { matchEndText } = await import('../../static/js/texts.mjs');
  const g = { winner: 'black', points: 0, kind: 'single', cubeValue: 1, reason: 'forfeit', score: [0, 0],
    matchOver: true, matchWinner: 'black', matchReason: 'suspended' };
  assert.equal(resultText(g, nameOf), 'Ben wins by forfeit: the match is awarded, and this game scores no points.');
  const mine = matchEndText(g, nameOf, 'black');
  assert.equal(mine.title, 'You won the match by forfeit');
  assert.equal(mine.body, 'Ann was suspended by an administrator: the match is awarded to Ben. '
    + 'The game in progress scores no points: the score is the one reached by play.');
  assert.equal(matchEndText(g, nameOf, 'white').title, 'You lost the match by forfeit');
  assert.equal(matchEndText({ ...g, matchReason: 'timeout' }, nameOf, null).body.split(':')[0], 'Ann ran out of time');
  // a match won on points is unchanged
  const won = { winner: 'white', points: 2, kind: 'gammon', cubeValue: 1, reason: 'bearoff', matchWinner: 'white',
    matchReason: 'points' };
  assert.deepEqual(matchEndText(won, nameOf, 'white'), { title: 'You won the match!', body: 'Ann wins 2 points (gammon).' });
});

test('a time control is worded from its numbers in the reader\'s language, not from the label it came with', async () => {
  const { timeControlText } = await import('../../static/js/texts.mjs');
  const corr = { kind: 'correspondence', daysPerMove: 2, bankDays: 1, label: '2 gün / hamle + 1 gün banka' };
  const live = { kind: 'live', delay: 12, bankPerPoint: 60, label: '12 sn gecikme + puan başına 60 sn banka' };
  assert.equal(timeControlText(corr), '2 days per move + 1 day bank');
  assert.equal(timeControlText({ ...corr, bankDays: 0 }), '2 days per move');
  assert.equal(timeControlText(live), '12 s delay + 60 s bank per point');
  assert.equal(timeControlText(null), '');
  const german = {
    '%(days)s day per move': ['%(days)s Tag pro Zug', '%(days)s Tage pro Zug'],
    '%(days)s day bank': ['%(days)s Tag Zeitbank', '%(days)s Tage Zeitbank'],
    '%(delay)s s delay + %(bank)s s bank per point': '%(delay)s s Verzögerung + %(bank)s s Zeitbank pro Punkt',
  };
  globalThis.django = {
    gettext: s => german[s] || s,
    ngettext: (s, p, n) => (german[s] ? german[s][n === 1 ? 0 : 1] : (n === 1 ? s : p)),
  };
  try {
    assert.equal(timeControlText(corr), '2 Tage pro Zug + 1 Tag Zeitbank');
    assert.equal(timeControlText(live), '12 s Verzögerung + 60 s Zeitbank pro Punkt');
  } finally {
    delete globalThis.django;
  }
});
