// Unit tests of the pure client state (static/js/state.mjs): node --test tests/js/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  START_POSITION, initialState, reduce, fold, selectableSources, targetsFrom, select, moveTo, undo, completedPlay,
  candidates, currentPosition, pipCounts, forcedPlay, mustPass, describe, formatSteps, moverPoint, yourTurn, nextMatchShown,
} from '../../static/js/state.mjs';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/game1.json', import.meta.url)));
const boardOf = s => ({ board: s.board, whiteBar: s.whiteBar, blackBar: s.blackBar, whiteOff: s.whiteOff, blackOff: s.blackOff });

test('folding a recorded game over its first snapshot gives the final board', () => {
  const start = reduce(initialState(), fixture.first);
  const end = fold(start, fixture.events);
  const last = fixture.last.d;
  assert.deepEqual(boardOf(end), boardOf(last));
  assert.equal(end.version, fixture.last.v);
  assert.equal(end.phase, 'over');
  assert.deepEqual(pipCounts(end), last.pips);
  assert.equal(end.result.winner, last.result.winner);
  assert.deepEqual(end.match.score, last.match.score);
  assert.ok(fixture.hits > 0, 'the recorded game has hits');
  // every move event is in the move list, in the server's notation
  const notations = fixture.events.filter(e => e.t === 'move').map(e => e.d.notation || 'cannot move');
  assert.deepEqual(end.moveList.filter(m => m.color && m.dice).map(m => m.text), notations);
});

test('the starting position drawn before a first game is the server engine\'s (the recorded first snapshot, before any move)', () => {
  assert.equal(fixture.first.d.lastTurn, null);
  assert.deepEqual(boardOf(START_POSITION), boardOf(fixture.first.d));
});

test('no checker is lost or made while folding', () => {
  let s = reduce(initialState(), fixture.first);
  assert.deepEqual(pipCounts(s), fixture.first.d.pips);
  for (const e of fixture.events) s = reduce(s, e);
  const white = s.board.reduce((a, v) => a + (v > 0 ? v : 0), 0) + s.whiteBar + s.whiteOff;
  const black = s.board.reduce((a, v) => a + (v < 0 ? -v : 0), 0) + s.blackBar + s.blackOff;
  assert.equal(white, 15); assert.equal(black, 15);
});

test('a gap asks for a resync and old events are ignored', () => {
  const start = reduce(initialState(), fixture.first);
  const [e1, e2, e3] = fixture.events;
  const gap = reduce(start, e2);
  assert.equal(gap.needResync, true);
  assert.equal(gap.version, start.version);
  const one = reduce(start, e1);
  assert.equal(reduce(one, e1), one, 'a duplicate changes nothing');
  assert.equal(fold(one, [e2, e3]).version, e3.v);
});

test('events of another game are ignored', () => {
  const start = reduce(initialState(), fixture.first);
  const other = { ...fixture.events[0], game: 999 };
  assert.equal(reduce(start, other), start);
});

test('legal moves of the envelope reach the player on roll; others get none', () => {
  let s = reduce(initialState(), fixture.first);
  const i = fixture.events.findIndex(e => e.legalMoves);
  s = fold(s, fixture.events.slice(0, i + 1));
  assert.deepEqual(s.legalMoves, fixture.events[i].legalMoves);
  s = reduce(s, fixture.events[i + 1]);
  assert.deepEqual(s.legalMoves, []);
});

// The opening 4-2 for White: the snapshot lists 18 plays.
const opening = () => reduce(initialState(), fixture.first);

test('selectable checkers are the sources of the legal plays', () => {
  const s = opening();
  assert.deepEqual(new Set(selectableSources(s)), new Set([24, 13, 8, 6]));
});

test('targets include single steps and chains of one checker', () => {
  const s = opening();
  const t = targetsFrom(s, 24);
  assert.deepEqual(t.get(20), [{ from: 24, to: 20 }]);
  assert.deepEqual(t.get(22), [{ from: 24, to: 22 }]);
  assert.deepEqual(t.get(18), [{ from: 24, to: 20 }, { from: 20, to: 18 }]);
  assert.equal(t.has(19), false);
});

test('after a partial step the plays are filtered by the multiset of steps', () => {
  let s = select(opening(), 8);
  s = moveTo(s, 4);
  assert.deepEqual(s.partial, [[{ from: 8, to: 4 }]]);
  assert.ok(candidates(s).every(c => c.play.some(st => st.from === 8 && st.to === 4)));
  assert.deepEqual(new Set(selectableSources(s)), new Set([24, 13, 8, 6, 4]));
  // order does not matter: 6/4 first then 8/4 completes the same play as 8/4 6/4
  let t = moveTo(select(opening(), 6), 4);
  t = moveTo(select(t, 8), 4);
  const play = completedPlay(t);
  assert.ok(play);
  assert.deepEqual(new Set(play.map(x => `${x.from}/${x.to}`)), new Set(['8/4', '6/4']));
  assert.equal(currentPosition(t).board[4], 2);
  assert.equal(currentPosition(t).board[8], 2);
});

test('a non-target does nothing; undo takes back the last group', () => {
  const s = select(opening(), 24);
  assert.equal(moveTo(s, 19), s);
  const chained = moveTo(s, 18);
  assert.equal(chained.partial.length, 1);
  assert.equal(completedPlay(chained).length, 2);
  const back = undo(chained);
  assert.deepEqual(back.partial, []);
  assert.equal(completedPlay(back), null);
});

test('a checker with no legal step cannot be selected; spectators select nothing', () => {
  const s = opening();
  assert.equal(select(s, 1).selected, null);
  assert.equal(select(s, 19).selected, null);
  const spectator = { ...s, you: null };
  assert.deepEqual(selectableSources(spectator), []);
});

test('checkers on the bar go first', () => {
  const s = { ...opening(), whiteBar: 1, board: opening().board.map((v, i) => (i === 24 ? 1 : v)),
    legalMoves: [[{ from: 'bar', to: 21 }, { from: 13, to: 11 }], [{ from: 'bar', to: 23 }, { from: 23, to: 19 }]] };
  assert.deepEqual(selectableSources(s), ['bar']);
  const after = moveTo(select(s, 'bar'), 21);
  assert.deepEqual(selectableSources(after), [13]);
});

test('forced plays and passes are recognised', () => {
  const s = opening();
  assert.equal(forcedPlay(s), null);
  const forced = { ...s, legalMoves: [[{ from: 6, to: 2 }, { from: 6, to: 4 }]] };
  assert.deepEqual(forcedPlay(forced), forced.legalMoves[0]);
  assert.equal(mustPass({ ...s, legalMoves: [[]] }), true);
  assert.equal(mustPass(s), false);
});

test('notation helpers use the mover\'s numbering', () => {
  assert.equal(moverPoint(5, 'black'), 20);
  assert.equal(formatSteps([{ from: 'bar', to: 3 }, { from: 1, to: 'off' }], 'black'), 'bar/22 24/off');
  assert.match(describe(opening()), /White \(you\) to move\. Dice 4 and 2\. Pips: White 167, Black 167\./);
});

test('cube events: double, take and the phase that follows', () => {
  let s = { ...opening(), phase: 'turn', actor: 'white', dice: null, legalMoves: [] };
  s = reduce(s, { t: 'double', v: s.version + 1, game: s.game, d: { color: 'white', cubeValue: 2 } });
  assert.equal(s.phase, 'cube_offered'); assert.equal(s.actor, 'black');
  s = reduce(s, { t: 'take', v: s.version + 1, game: s.game, d: { color: 'black', cubeValue: 2 } });
  assert.equal(s.cube.value, 2); assert.equal(s.cube.owner, 'black');
  assert.equal(s.phase, 'turn'); assert.equal(s.actor, 'white'); assert.equal(s.flagsStale, true);
});

test('resignation offer and rejection restore the phase', () => {
  let s = opening();
  s = reduce(s, { t: 'resign_offer', v: s.version + 1, game: s.game, d: { color: 'black', level: 2 } });
  assert.equal(s.phase, 'resign_offered'); assert.equal(s.actor, 'white'); assert.equal(s.resignOffer.name, 'gammon');
  s = reduce(s, { t: 'resign_reject', v: s.version + 1, game: s.game, d: { color: 'white' }, legalMoves: opening().legalMoves });
  assert.equal(s.phase, 'move'); assert.equal(s.actor, 'white'); assert.equal(s.resignOffer, null);
  assert.equal(s.legalMoves.length, 18);
});

test('a snapshot of the next game after game_end resets the game', () => {
  const end = fold(reduce(initialState(), fixture.first), fixture.events);
  assert.ok(end.gameEnd.matchOver);
  const next = reduce(end, { ...fixture.first, d: { ...fixture.first.d, game: 77 } });
  assert.equal(next.game, 77); assert.deepEqual(next.moveList, []); assert.equal(next.gameEnd, null);
});

test('a snapshot of the same version keeps the partial play and the selection', () => {
  let s = moveTo(select(opening(), 8), 4);
  s = select(s, 6);
  const again = reduce(s, fixture.first);
  assert.deepEqual(again.partial, s.partial);
  assert.equal(again.selected, 6);
  const later = reduce(s, { ...fixture.first, v: fixture.first.v + 1, d: { ...fixture.first.d, version: fixture.first.v + 1 } });
  assert.deepEqual(later.partial, []);
  assert.equal(later.selected, null);
});

test('an event with the server\'s state summary needs no snapshot and sets the cube flags', () => {
  const start = reduce(initialState(), fixture.first);
  const v = start.version;
  const mover = start.actor, other = mover === 'white' ? 'black' : 'white';
  const summary = { phase: 'turn', actor: other, cube: { value: 1, owner: null, enabled: true },
    may: { double: true, beaver: false, raccoon: false }, positionId: 'XYZ', clock: null };
  const event = { t: 'move', v: v + 1, game: start.game, d: { color: mover, dice: [1, 2], moves: [], notation: '' } };
  const withSummary = reduce(start, { ...event, state: summary });
  assert.equal(withSummary.flagsStale, false);
  assert.equal(withSummary.positionId, 'XYZ');
  assert.equal(withSummary.actor, other);
  assert.equal(withSummary.cube.canDouble, withSummary.you === other);
  const without = reduce(start, event);
  assert.equal(without.flagsStale, true);   // an old-style event: ask for a snapshot
});

test('a match awarded by forfeit: the move list says so, not "Wins 0 points"', () => {
  let s = reduce(initialState(), fixture.first);
  s = reduce(s, { t: 'forfeit', v: s.version + 1, game: s.game, d: { color: 'white', reason: 'suspended', scored: false } });
  s = reduce(s, { t: 'game_end', v: s.version + 1, game: s.game, d: { winner: 'black', kind: 'single', reason: 'forfeit',
    cubeValue: 1, points: 0, score: [0, 0], matchOver: true, matchWinner: 'black', matchReason: 'suspended' } });
  const last = s.moveList[s.moveList.length - 1];
  assert.equal(last.text, 'Wins by forfeit (the match is awarded; no points)');
  assert.ok(!s.moveList.some(m => /Wins 0/.test(m.text)));
  assert.deepEqual(s.match.score, [0, 0]);
});

// -- whose turn: the header's count, "Next match", the end of a game held on screen --------------------
const ended = fold(reduce(initialState(), fixture.first), fixture.events);   // the 1-point match, White (you) won
const summary = (actor, phase) => ({ phase, actor, cube: { value: 1, owner: null, enabled: false },
  may: { double: false, beaver: false, raccoon: false }, positionId: 'x', clock: null });
const position = { board: fixture.first.d.board, whiteBar: 0, blackBar: 0, whiteOff: 0, blackOff: 0, turn: null };
/** The next game of a longer match: its start, then its opening roll won by ``first``. */
const nextGame = (state, first) => fold(state, [
  { t: 'game_start', v: 1, game: 2, d: { position, number: 2, score: [1, 0], crawfordGame: false } },
  { t: 'opening_roll', v: 2, game: 2, d: { white: first === 'white' ? 5 : 2, black: first === 'white' ? 2 : 5, first, cubeValue: 1 },
    state: summary(first, 'move') },
]);

test('your turn: a player on roll in a game going on, never a watcher nor a finished game', () => {
  const start = reduce(initialState(), fixture.first);
  assert.equal(start.actor, 'white');
  assert.ok(yourTurn(start));
  assert.ok(!yourTurn({ ...start, you: 'black' }));
  assert.ok(!yourTurn({ ...start, you: null }), 'a watcher has no turn');
  assert.ok(!yourTurn(ended), 'the game is over');
  const midMatch = { ...ended, match: { ...ended.match, status: 'playing' }, gameEnd: { ...ended.gameEnd, matchOver: false } };
  assert.ok(yourTurn(nextGame(midMatch, 'white')), 'the next game waits for White: the end held gives way');
  assert.ok(!yourTurn(nextGame(midMatch, 'black')), 'the opponent opens: the end may stay');
  assert.ok(!yourTurn(fold(midMatch, [{ t: 'game_start', v: 1, game: 2, d: { position, number: 2, score: [1, 0], crawfordGame: false } }])),
    'before the opening roll nobody is on roll');
});

test('"Next match" only when another match waits and this one can be left', () => {
  const playing = reduce(initialState(), fixture.first);   // a live match, White (you) on roll
  const theirs = { ...playing, actor: 'black' };
  assert.ok(!nextMatchShown(theirs, 2), 'a live match going on: the opponent moving is no reason to leave');
  assert.ok(!nextMatchShown(playing, 2));
  assert.ok(nextMatchShown(ended, 1), 'the match is over and another waits');
  assert.ok(!nextMatchShown(ended, 0), 'nowhere to go');
  assert.ok(!nextMatchShown(ended, null), 'no count: a visitor');
  assert.ok(!nextMatchShown({ ...ended, you: null }, 3), 'a watcher');
  const corr = { ...theirs, match: { ...theirs.match, timeControl: { kind: 'correspondence', daysPerMove: 2 } } };
  assert.ok(nextMatchShown(corr, 1), 'correspondence: played, on to the next one waiting');
  assert.ok(!nextMatchShown({ ...corr, actor: 'white' }, 1), 'correspondence, your turn here: stay');
  assert.ok(!nextMatchShown(corr, 0));
});
