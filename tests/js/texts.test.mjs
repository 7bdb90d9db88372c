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
