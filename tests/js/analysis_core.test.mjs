// Unit tests of the analysis page's pure part (static/js/analysis_core.mjs): node --test tests/js/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LUCK_NOTE, PR_NOTE, RATING_SCALE, alternatives, arrowsFor, biggestErrors, boardFor, buildSteps, gameGraph, gameRows, keep,
  lossOf, luckText, markOf, nextIndex, resultText, ratingScale, ratingWord, shallowNote, statRows, verdict, whiteWinChance, winSeries,
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

test('the board shows the position before the decision, then (toggled) the play made or the alternative clicked', () => {
  const steps = buildSteps(result);
  const before = boardFor(steps[0]);
  assert.deepEqual(before.pos, start);
  assert.equal(before.lastTurn, null);
  assert.deepEqual(before.dice, [3, 1]);
  const made = boardFor(steps[0], null, true);
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

// The issue's case: the evaluator listed deeper plies first, so the play made (looked at
// 2-ply deep) at -0.351 sat above 24/16 at -0.009 (left at 0-ply by the filter).
const issueMove = () => ({
  kind: 'move', player: 'black', position: start, dice: [5, 3], cube: null, luck: { value: -0.4123, mark: 'unlucky' },
  play: { moves: [], notation: '8/5 8/3', forced: false, rank: 3, candidates: 20, loss: 0.40, mark: 'very_bad',
    alternatives: [
      { rank: 1, notation: '13/8 6/3', moves: [], equity: 0.049, loss: 0, ply: 2, played: false },
      { rank: 2, notation: '24/21 13/8', moves: [], equity: 0.02, loss: 0.029, ply: 2, played: false },
      { rank: 3, notation: '8/5 8/3', moves: [], equity: -0.351, loss: 0.4, ply: 2, played: true },
      { rank: 4, notation: '24/16', moves: [], equity: -0.009, loss: 0.058, ply: 0, played: false },
      { rank: 5, notation: '13/5', moves: [], equity: 0.1, loss: 0, ply: 0, played: false },
    ] },
});

test('plays are sorted by equity after the deepest best, the played one in its place', () => {
  const alts = alternatives(issueMove());
  assert.deepEqual(alts.map(a => a.text), ['1. 13/8 6/3', '2. 13/5', '3. 24/21 13/8', '4. 24/16', '5. 8/5 8/3']);
  assert.deepEqual(alts.map(a => a.plyText), ['', '0-ply', '', '0-ply', '']);
  assert.ok(alts[4].played);
  assert.match(verdict({ d: issueMove() }), /8\/5 8\/3 · rank 5 of 20 · Very bad/);
  assert.equal(shallowNote(alts), 'Plays marked 0-ply were not looked at 2-ply deep (the filter left them out): '
    + 'their equity is a quicker estimate.');
  // an analysis already ranked by equity keeps its ranks (the play made may rank beyond the list)
  const ranked = { ...issueMove(), play: { ...issueMove().play, alternatives: [
    { rank: 1, notation: 'a', moves: [], equity: 0.2, ply: 2 }, { rank: 2, notation: 'b', moves: [], equity: 0.1, ply: 2 },
    { rank: 14, notation: 'c', moves: [], equity: -0.3, ply: 2, played: true }] } };
  assert.deepEqual(alternatives(ranked).map(a => a.rank), [1, 2, 14]);
  assert.equal(shallowNote(alternatives(ranked)), '');
});

test('luck is in EMG with its explanation; PR and the rating words come with the scale', () => {
  assert.equal(luckText({ value: -0.4123, mark: 'very_unlucky' }), '-0.412 EMG (very unlucky)');
  assert.equal(luckText({ value: 0.05, mark: null }), '+0.050 EMG');
  assert.match(LUCK_NOTE, /EMG/);
  const rows = Object.fromEntries(statRows({
    overall: { pr: 6.5, errorRate: 13, rating: 'casual_player', decisions: 40 },
    checker: { errorRate: 12, marks: { doubtful: 1, bad: 0, very_bad: 0 } },
    cube: { errorRate: null, marks: { doubtful: 0, bad: 0, very_bad: 0 } },
    luck: { total: 1.1709, perRoll: 33.45, rolls: 35 } }));
  assert.equal(rows['Rating'], 'Casual player');
  assert.equal(rows['Luck (EMG: in total · per roll)'], '+1.171 · +0.033');  // one unit: EMG
  assert.equal(ratingWord('world_class'), 'World class');
  const scale = ratingScale().map(r => r.line);
  assert.equal(scale[0], 'Supernatural: PR below 1.0 (error rate below 2.0)');
  assert.equal(scale[1], 'World class: PR below 2.5 (error rate below 5.0)');
  assert.equal(scale[scale.length - 1], 'Awful: PR 17.5 or more (error rate 35.0 or more)');
  assert.equal(RATING_SCALE.length, 8);
  assert.match(PR_NOTE, /lower is better/);
});

test("a player's biggest errors, worst first, each pointing at its decision", () => {
  const steps = buildSteps({ games: [result.games[0], { decisions: [issueMove(), ...result.games[1].decisions] }] });
  const black = biggestErrors(steps, 'black');
  assert.deepEqual(black.map(e => e.index), [2, 1]);
  assert.equal(black[0].text, 'Game 2, decision 3: Black 53: 8/5 8/3 · Very bad (−0.400)');
  assert.deepEqual(biggestErrors(steps, 'white').map(e => [e.index, e.text]),
    [[3, 'Game 2, decision 4: White double · Very bad (−0.200)']]);
  assert.equal(biggestErrors(steps, null, 2).length, 2);
});

test('arrows before a play: the play made and the best play, or one arrow style when they are the same', () => {
  const [good, bad] = result.games[0].decisions;
  const same = arrowsFor(good);
  assert.deepEqual(same.map(a => [a.kind, a.from, a.to]), [['both', 8, 5], ['both', 6, 5]]);
  const two = arrowsFor(bad);
  assert.deepEqual(two.map(a => [a.kind, a.from, a.to]),
    [['best', 8, 5], ['best', 6, 5], ['played', 24, 21], ['played', 21, 20]]);
  for (const a of two) assert.match(a.d, /^M[\d.-]+,[\d.-]+ Q[\d.-]+,[\d.-]+ [\d.-]+,[\d.-]+$/);
  // the board is seen from Black's side: the same step is drawn elsewhere
  assert.notEqual(arrowsFor(bad, { you: 'black', flipped: false })[0].d, two[0].d);
  const doubled = { ...good, play: { ...good.play, moves: [{ from: 6, to: 5 }, { from: 6, to: 5 }, { from: 8, to: 5 }] } };
  assert.deepEqual(arrowsFor(doubled).map(a => [a.kind, a.from, a.to, a.n]), [['both', 6, 5, 2], ['both', 8, 5, 1]]);
  const forced = { ...good, play: { ...good.play, forced: true, alternatives: undefined } };
  assert.deepEqual(arrowsFor(forced).map(a => a.kind), ['played', 'played']);
  assert.deepEqual(arrowsFor(result.games[1].decisions[0]), []);  // a double: no arrows
  assert.deepEqual(arrowsFor({ ...good, play: null }), []);
});

test('per game: the error rate and luck of each player, the result, the first decision; the graph of one game', () => {
  const stats = (errorRate, luck) => ({ overall: { errorRate, pr: errorRate / 2, rating: 'expert' }, luck: { total: luck } });
  const games = { games: [
    { game: { number: 1, score: [0, 0], matchLength: 5, result: { winner: 'black', points: 2 } },
      decisions: result.games[0].decisions, stats: { white: stats(4, 0.5), black: stats(12, -0.5) } },
    { game: { number: 2, score: [0, 2], matchLength: 5, result: null }, decisions: result.games[1].decisions },
  ] };
  const rows = gameRows(games);
  assert.deepEqual(rows.map(r => [r.number, r.first, r.white.errorRate, r.black.luck]), [[1, 0, 4, -0.5], [2, 2, null, null]]);
  assert.equal(resultText(rows[0].result), 'Black wins 2 points');
  assert.equal(resultText({ winner: 'white', points: 1 }), 'White wins 1 point');
  assert.equal(resultText(null), 'Not finished');
  const steps = buildSteps(games), series = winSeries(steps);
  assert.deepEqual(gameGraph(steps, series, 1).map(p => [p.index, p.mark, p.player]), [[2, 'very_bad', 'white'], [3, null, 'black']]);
  assert.deepEqual(gameGraph(steps, series, 0).map(p => p.win.toFixed(2)), ['0.60', '0.45']);
});
