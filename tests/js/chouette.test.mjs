// Unit tests of the chouette page's pure part (static/js/chouette_state.mjs).
// The fixture is made by the engine: .venv/bin/python -m tests.js.record_chouette_fixture
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  roleOf, boardSide, lineRows, cubeRows, decisionButtons, playChoices, canMove, canSuggest, waitingFor,
  settleableCubes, offersFor, secondsLeft, statusText,
} from '../../static/js/chouette_state.mjs';

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
  const choices = playChoices(st);
  assert.ok(choices.length > 0 && choices.length <= st.game.legal.length);
  assert.equal(new Set(choices.map(c => c.text)).size, choices.length);
  assert.match(statusText(st, 2), /team .* on roll, to play 3-1\. You are captain/);
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
