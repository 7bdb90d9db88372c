// Unit tests of the chouette page's pure part (static/js/chouette_state.mjs).
// The fixture is made by the engine: .venv/bin/python -m tests.js.record_chouette_fixture
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  roleOf, boardSide, boardState, lineRows, cubeRows, decisionButtons, canMove, canSuggest, waitingFor,
  settleableCubes, offersFor, secondsLeft, statusText, boardCube, endPlaque, actorOf, endHeld, canStart,
} from '../../static/js/chouette_state.mjs';
import { canMoveNow, completedPlay, selectableSources } from '../../static/js/state.mjs';
import { clickPoint, usedDice } from '../../static/js/play.mjs';

const fx = JSON.parse(readFileSync(new URL('./fixtures/chouette.json', import.meta.url)));

test('roles and the board side follow the game', () => {
  const st = fx.move;
  assert.equal(roleOf(st, 1), 'box');
  assert.equal(roleOf(st, 2), 'captain');
  assert.equal(roleOf(st, 3), 'crew');
  assert.equal(roleOf(st, 99), 'spectator');
  assert.equal(roleOf(st, null), 'spectator');
  assert.equal(boardSide(st, 1), 'white');
  assert.equal(boardSide(st, 3), 'black');
});

test('the captain moves with the legal plays, a member without a turned cube cannot suggest', () => {
  const st = fx.move;
  assert.ok(canMove(st, 2));
  assert.ok(!canMove(st, 3));
  assert.ok(!canSuggest(st, 3));  // rule 2: his cube is not turned
  assert.match(statusText(st, 2), /team .* on roll, to play 3-1\. You are captain/);
});

test('the captain moves the team\'s checkers on the board, from the legal plays', () => {
  const st = fx.move;   // the team (Black) plays an opening 3-1
  const board = boardState(st, 2);
  assert.equal(board.you, 'black');
  assert.ok(canMoveNow(board));
  assert.deepEqual(board.legalMoves, st.game.legal);
  assert.deepEqual(new Set(selectableSources(board)), new Set([1, 12, 17, 19]));   // its 24, 13, 8 and 6
  // 8/5 6/5 in Black's numbering is 17/20 19/20 on the absolute board
  let s = clickPoint(clickPoint(board, 17).state, 20).state;
  assert.deepEqual(usedDice(s), [true, false]);
  s = clickPoint(clickPoint(s, 19).state, 20).state;
  const play = completedPlay(s);
  assert.ok(st.game.legal.includes(play), 'the captain sends {steps: play}, one of the legal plays');
  // The crew member and the box see the board but move nothing.
  for (const you of [1, 3, null]) {
    const other = boardState(st, you);
    assert.equal(canMoveNow(other), false);
    assert.deepEqual(other.legalMoves, []);
  }
  assert.equal(boardState(st, 1).you, 'white');
});

test('the checkers moved so far stay while the turn lasts, and go with it', () => {
  const st = fx.move;
  const moved = clickPoint(clickPoint(boardState(st, 2), 17).state, 20).state;
  const later = { ...st, version: st.version + 1 };   // e.g. a settlement offered meanwhile
  assert.deepEqual(boardState(later, 2, moved).partial, moved.partial);
  const next = { ...st, game: { ...st.game, turnNumber: st.game.turnNumber + 1 } };
  assert.deepEqual(boardState(next, 2, moved).partial, []);
  const other = { ...st, game: { ...st.game, legal: [[{ from: 1, to: 4 }, { from: 1, to: 2 }]] } };
  assert.deepEqual(boardState(other, 2, moved).partial, [], 'no legal play goes on from them');
});

test('a double to every member: each sees his own take/drop/beaver, the box none', () => {
  const st = fx.answers;
  assert.deepEqual(decisionButtons(st, 1), []);
  const bob = decisionButtons(st, 2);
  assert.deepEqual(bob.map(b => b.t), ['take', 'drop', 'beaver']);
  assert.ok(bob.every(b => b.d.cube === 2));
  assert.equal(bob[0].label, 'Take your cube');
  assert.deepEqual(waitingFor(st).map(w => w.name), ['bob', 'cy', 'dee']);
  const cubes = cubeRows(st);
  assert.deepEqual(cubes.map(c => [c.name, c.value, c.pending]), [['bob', 1, true], ['cy', 1, true], ['dee', 1, true]]);
  assert.equal(secondsLeft(st, Date.parse('2030-01-01T00:00:30Z')), 30);
});

test('the line: box first, scores, roles; settlements are offered to the parties', () => {
  const st = fx.answers;
  const rows = lineRows(st, 3);
  assert.deepEqual(rows.map(r => [r.name, r.role]), [['ann', 'box'], ['bob', 'captain'], ['cy', 'crew'], ['dee', 'crew']]);
  assert.ok(rows[2].you);
  assert.deepEqual(settleableCubes(st, 1).map(c => c.name), ['bob', 'cy', 'dee']);
  assert.deepEqual(settleableCubes(st, 3).map(c => c.name), ['cy']);
  const withOffer = { ...st, game: { ...st.game, offers: [{ cube: 3, proposer: 3, amount: -1 }] } };
  assert.equal(offersFor(withOffer, 1).toYou.length, 1);
  assert.equal(offersFor(withOffer, 3).byYou.length, 1);
  assert.equal(offersFor(withOffer, 2).toYou.length, 0);
});

test('the cube on the board: the viewer\'s own, else the captain\'s; turned when offered, on its owner\'s side', () => {
  const st = fx.move;
  assert.deepEqual(boardCube(st, 3), { member: 3, enabled: true, value: 1, owner: null });
  assert.equal(boardCube(st, 1).member, 2, 'the box sees the captain\'s cube');
  assert.equal(boardCube(st, null).member, 2, 'so does a spectator');
  assert.equal(boardCube(fx.answers, 3).value, 2, 'offered: turned to 2');
  const cubes = st.game.cubes.map(c => (c.member === 3 ? { ...c, value: 2, owner: 'team' } : c.member === 2 ? { ...c, value: 4, owner: 'box' } : c));
  const taken = { ...st, game: { ...st.game, cubes } };
  assert.deepEqual([boardCube(taken, 3).value, boardCube(taken, 3).owner], [2, 'black'], 'the team plays Black');
  assert.deepEqual([boardCube(taken, 1).value, boardCube(taken, 1).owner], [4, 'white']);
  const out = { ...st, game: { ...st.game, cubes: cubes.map(c => (c.member === 2 ? { ...c, stage: 'dropped' } : c)) } };
  assert.notEqual(boardCube(out, 1).member, 2, 'a dropped cube leaves the board to one in play');
  assert.equal(boardCube({ game: null }, 1), null);
});

test("a suggested play's chat line is worded in the reader's language, the play kept apart", async () => {
  const { suggestionParts } = await import('../../static/js/chouette_state.mjs');
  const play = [{ from: 13, to: 7 }, { from: 8, to: 7 }];
  delete globalThis.django;
  assert.deepEqual(suggestionParts(play), ['suggests ', '13/7 8/7', '']);
  globalThis.django = { gettext: (s) => ({ 'suggests %(play)s': 'يقترح %(play)s', 'x': 'y' }[s] || s) };
  try {
    assert.deepEqual(suggestionParts(play), ['يقترح ', '13/7 8/7', '']);
    globalThis.django.gettext = (s) => (s === 'suggests %(play)s' ? '%(play)s öneriyor' : s);
    assert.deepEqual(suggestionParts(play), ['', '13/7 8/7', ' öneriyor']);
  } finally {
    delete globalThis.django;
  }
});

test('a game\'s end on the board: who won it (box or captain), the box\'s points and whether it holds', () => {
  const st = fx.move, r = fx.dropped;   // every member dropped the box's double (the engine's result)
  assert.deepEqual(endPlaque(r, st), { color: null, title: 'Game over', detail: 'Box +3 · holds the box' });
  const team = { ...r, boardWinner: 'team', boxHolds: false, finalCaptain: 3, scores: [[1, -4], [2, 2], [3, 1], [4, 1]] };
  assert.deepEqual(endPlaque(team, st), { color: 'black', title: 'cy (captain) wins', detail: 'Box -4 · cy takes the box' });
  const box = { ...r, boardWinner: 'box', scores: [[1, 0], [2, 0], [3, 0], [4, 0]] };
  assert.deepEqual(endPlaque(box, st), { color: 'white', title: 'ann (box) wins', detail: 'Box 0 · holds the box' });
});

test('whom the game waits for, as the turn\'s chime hears it: you, the others, or no game', () => {
  assert.equal(actorOf(fx.move, 2), 2, 'the captain plays');
  assert.equal(actorOf(fx.move, 3), 'others');
  assert.equal(actorOf(fx.move, null), 'others', 'a watcher');
  const waiting = new Set(fx.answers.game.pending.map(p => p.player));
  for (const id of [2, 3, 4]) assert.equal(actorOf(fx.answers, id), waiting.has(id) ? id : 'others');
  assert.ok([2, 3, 4].some(id => actorOf(fx.answers, id) === id), 'a member answers the double');
  assert.equal(actorOf({ ...fx.move, game: null }, 2), null);
});

test('a game\'s end stays on the board until its delay or its dialog, never once the next game waits for you', () => {
  const st = fx.move, n = st.game.number;   // the captain (2) plays, the crew member (3) and the box (1) wait
  const next = { number: n - 1, until: 10_000, closed: false };   // the end of the game before this one
  assert.equal(endHeld(null, st, 3, 0), false);
  assert.equal(endHeld(next, st, 3, 5_000), true, 'the crew member waits: the end stays');
  assert.equal(endHeld(next, st, null, 5_000), true, 'a watcher: the end stays');
  assert.equal(endHeld(next, st, 2, 5_000), false, 'the captain must play: at once');
  assert.equal(endHeld(next, st, 3, 10_000), false, 'its delay passed');
  assert.equal(endHeld({ ...next, closed: true }, st, 3, 5_000), false, 'its dialog closed');
  const last = { number: n, until: 10_000, closed: true };   // the end of this very game: no game follows yet
  assert.equal(endHeld(last, st, 2, 20_000), true, 'nothing follows: it stays');
});

test('an open table says who may start it: the players the server names (starters)', () => {
  // who they are is the server's rule (ChouetteRules.starters; tests/services/test_chouette_flow.py)
  const seat = (player, name) => ({ player, name, active: true });
  const open = { status: 'open', session: null, game: null, creator: 1, rules: {}, seats: [seat(1, 'ann'), seat(2, 'bob')], starters: [] };
  assert.ok(!canStart(open, 1));   // too few sit: nobody
  assert.match(statusText(open, 1), /sit down/);
  const full = { ...open, seats: [...open.seats, seat(3, 'cy')], starters: [1] };
  assert.ok(canStart(full, 1) && !canStart(full, 2) && !canStart(full, null));   // the host starts
  assert.match(statusText(full, 1), /^Ready: start/);
  assert.equal(statusText(full, 2), 'Ready: waiting for ann to start the chouette.');
  const hostAway = { ...full, creator: 9, starters: [1, 2, 3] };   // the host left: any seated player may start
  assert.ok(canStart(hostAway, 2) && canStart(hostAway, 3));
  assert.match(statusText(hostAway, null), /a seated player/);
  assert.ok(!canStart({ ...full, starters: undefined }, 1));   // a state without the field: no button
});
