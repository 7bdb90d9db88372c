// Unit tests of the analysis page's pure part (static/js/analysis_core.mjs): node --test tests/js/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  alternatives, boardFor, buildSteps, keep, lossOf, markOf, nextIndex, verdict, whiteWinChance, winSeries,
} from '../../static/js/analysis_core.mjs';

const start = { board: [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2],
  whiteBar: 0, blackBar: 0, whiteOff: 0, blackOff: 0, turn: 'white' };
const probs = win => ({ win, winGammon: 0, winBackgammon: 0, loseGammon: 0, loseBackgammon: 0 });
const move = (player, mark, loss, played) => ({
  kind: 'move', player, position: start, dice: [3, 1], cube: null, luck: { value: 0.1, mark: null },
  play: { moves: played, notation: 'x', forced: false, rank: mark ? 2 : 1, candidates: 16, loss, mark,
    alternatives: [
      { rank: 1, moves: [{ from: 8, to: 5 }, { from: 6, to: 5 }], notation: '8/5 6/5', equity: 0.2, loss: 0, probs: probs(0.6), played: !mark },
      { rank: 2, moves: [{ from: 24, to: 21 }, { from: 21, to: 20 }], notation: '24/20', equity: 0.1, loss, probs: probs(0.55), played: !!mark },
    ] },
});
const result = { games: [
  { decisions: [move('white', null, 0, [{ from: 8, to: 5 }, { from: 6, to: 5 }]), move('black', 'bad', 0.07, [{ from: 24, to: 21 }, { from: 21, to: 20 }])] },
  { decisions: [{ kind: 'double', player: 'white', position: start, loss: 0.2, mark: 'very_bad',
    cube: { nd: 0.1, dt: 0.05, dp: 1, best: 'no_double', takeRight: 'take', probs: probs(0.7) } },
  { kind: 'take', player: 'black', position: start, loss: 0, mark: null,
    cube: { nd: 0.1, dt: 0.05, dp: 1, best: 'no_double', takeRight: 'take', probs: probs(0.7) } }] },
] };

test('steps run over every game in order', () => {
  const steps = buildSteps(result);
  assert.deepEqual(steps.map(s => [s.game, s.index, s.d.kind]), [[0, 0, 'move'], [0, 1, 'move'], [1, 2, 'double'], [1, 3, 'take']]);
});

test('marks, losses and the "only my errors" filter', () => {
  const steps = buildSteps(result);
  assert.deepEqual(steps.map(s => markOf(s.d)), [null, 'bad', 'very_bad', null]);
  assert.equal(lossOf(steps[1].d), 0.07);
  const mine = { errorsOnly: true, mine: 'white' };
  assert.deepEqual(steps.map(s => keep(s, mine)), [false, false, true, false]);
  assert.equal(nextIndex(steps, 0, 1, mine), 2);
  assert.equal(nextIndex(steps, 2, 1, mine), 2); // nothing after: stays
  assert.equal(nextIndex(steps, 0, 1, { errorsOnly: true, mine: null }), 1);
  assert.equal(nextIndex(steps, 3, -1, {}), 2);
});

test("White's win chance: the played play's, flipped for Black; the doubler's for cube steps", () => {
  const steps = buildSteps(result);
  assert.equal(whiteWinChance(steps[0].d), 0.6);
  assert.equal(whiteWinChance(steps[1].d), 1 - 0.55);
  assert.equal(whiteWinChance(steps[2].d), 0.7);
  assert.equal(whiteWinChance(steps[3].d), 0.7); // the take: the doubler (White) is on roll
  assert.equal(winSeries(steps).length, 4);
});

test('the board shows the play made, or the alternative clicked', () => {
  const steps = buildSteps(result);
  const made = boardFor(steps[0]);
  assert.equal(made.pos.board[5], 2);
  assert.equal(made.pos.board[8], 2);
  const alt = alternatives(steps[0].d)[1];
  const shown = boardFor(steps[0], alt);
  assert.equal(shown.pos.board[24], 1);
  assert.equal(shown.pos.board[20], 1);
  assert.deepEqual(shown.lastTurn.moves, alt.moves);
  assert.equal(boardFor(steps[2]).lastTurn, null);
});

test('verdicts name the player, the play and the error', () => {
  const steps = buildSteps(result);
  assert.match(verdict(steps[0]), /^White 31: x · best play · No error$/);
  assert.match(verdict(steps[1]), /Black 31: x · rank 2 of 16 · Bad \(−0\.070\)/);
  assert.match(verdict(steps[2]), /White doubles · right: No double · Very bad/);
  assert.match(verdict(steps[3]), /Black takes · right: Take · No error/);
});
