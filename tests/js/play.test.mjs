// Unit tests of the play being made on the board (static/js/play.mjs): the dice it has used,
// what a click or a drop does, what the board shows. node --test tests/js/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { completedPlay, initialState, moveTo, reduce, select } from '../../static/js/state.mjs';
import {
  clickPoint, diceUse, dropOn, moveHint, partialFor, playView, rollDice, usedDice,
} from '../../static/js/play.mjs';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/game1.json', import.meta.url)));
// The opening 4-2 for White, who holds this socket: 18 legal plays.
const opening = () => reduce(initialState(), fixture.first);
// A player on roll with these dice and these steps made (one group each); no legal list needed.
const made = (you, dice, steps) => ({ ...initialState(), you, actor: you, phase: 'move', dice, partial: steps.map(s => [s]) });

test('a roll is two dice, doubles four', () => {
  assert.deepEqual(rollDice([4, 2]), [4, 2]);
  assert.deepEqual(rollDice([3, 3]), [3, 3, 3, 3]);
  assert.deepEqual(rollDice(null), []);
});

test('each step uses the die of its distance, in the mover\'s numbering', () => {
  assert.deepEqual(diceUse(made('white', [4, 2], [])), { dice: [4, 2], used: [false, false], left: [4, 2] });
  assert.deepEqual(diceUse(made('white', [4, 2], [{ from: 6, to: 4 }])).left, [4]);
  assert.deepEqual(diceUse(made('white', [4, 2], [{ from: 8, to: 4 }])).used, [true, false]);
  // Black moves up in absolute points: 1 -> 6 is its 24/19, a 5.
  assert.deepEqual(diceUse(made('black', [5, 1], [{ from: 1, to: 6 }])).left, [1]);
  // From the bar: White's 25 to 22 is a 3; Black's bar to absolute 4 (its 21) a 4.
  assert.deepEqual(diceUse(made('white', [3, 6], [{ from: 'bar', to: 22 }])).left, [6]);
  assert.deepEqual(diceUse(made('black', [2, 4], [{ from: 'bar', to: 4 }])).left, [2]);
});

test('bearing off from below the die\'s point uses a bigger die', () => {
  const use = diceUse(made('white', [6, 2], [{ from: 4, to: 'off' }]));
  assert.deepEqual(use.used, [true, false]);
  assert.deepEqual(use.left, [2]);
  // an exact die is taken first when there is one
  assert.deepEqual(diceUse(made('white', [6, 4], [{ from: 4, to: 'off' }])).left, [6]);
});

test('doubles: the board greys the second die after two moves, the first after four', () => {
  const step = { from: 13, to: 10 };
  assert.deepEqual(usedDice(made('white', [3, 3], [step])), [false, false]);
  assert.deepEqual(usedDice(made('white', [3, 3], [step, step])), [false, true]);
  assert.deepEqual(usedDice(made('white', [3, 3], [step, step, step])), [false, true]);
  assert.deepEqual(usedDice(made('white', [3, 3], [step, step, step, step])), [true, true]);
  assert.deepEqual(diceUse(made('white', [3, 3], [step, step, step])).left, [3]);
  assert.deepEqual(usedDice(made('white', [4, 2], [{ from: 6, to: 4 }])), [false, true]);
  assert.deepEqual(usedDice(made('white', [4, 2], [])), []);
});

test('a click picks up a checker, puts it back, or moves it to a target', () => {
  const s = opening();
  const picked = clickPoint(s, 24);
  assert.equal(picked.moved, false);
  assert.equal(picked.state.selected, 24);
  assert.equal(clickPoint(picked.state, 24).state.selected, null, 'the same checker again: put back');
  assert.equal(clickPoint(picked.state, 13).state.selected, 13, 'another checker: picked instead');
  const moved = clickPoint(picked.state, 20);
  assert.equal(moved.moved, true);
  assert.deepEqual(moved.state.partial, [[{ from: 24, to: 20 }]]);
  assert.equal(moved.state.selected, null);
  const chained = clickPoint(picked.state, 18);   // both dice with one checker
  assert.deepEqual(chained.state.partial, [[{ from: 24, to: 20 }, { from: 20, to: 18 }]]);
  assert.ok(completedPlay(chained.state));
  assert.equal(clickPoint(picked.state, 19).state.selected, null, 'not a target, not a checker to move');
});

test('a click does nothing when it is not the player\'s move', () => {
  const spectator = { ...opening(), you: null };
  assert.equal(clickPoint(spectator, 24).state, spectator);
  const waiting = { ...opening(), actor: 'black' };
  assert.equal(clickPoint(waiting, 24).state, waiting);
  assert.equal(clickPoint(opening(), null).moved, false);
});

test('a drop moves the dragged checker to a target, anywhere else puts it back', () => {
  const s = opening();
  const dropped = dropOn(s, 13, 9);
  assert.equal(dropped.moved, true);
  assert.deepEqual(dropped.state.partial, [[{ from: 13, to: 9 }]]);
  const missed = dropOn(select(s, 13), 13, 10);
  assert.equal(missed.moved, false);
  assert.equal(missed.state.selected, null);
  assert.deepEqual(missed.state.partial, []);
  assert.equal(dropOn(s, 13, null).moved, false);
});

test('the board shows the picked checker, its targets and the dice used', () => {
  const s = select(opening(), 24);
  const view = playView(s);
  assert.equal(view.selected, 24);
  assert.deepEqual(new Set(view.targets), new Set([20, 22, 18]));
  assert.deepEqual(new Set(view.selectable), new Set([24, 13, 8, 6]));
  const after = playView(moveTo(s, 20));
  assert.equal(after.pos.board[20], 1);
  assert.deepEqual(after.usedDice, [true, false]);
  const spectator = playView({ ...opening(), you: null });
  assert.deepEqual([spectator.selectable, spectator.targets, spectator.usedDice], [[], [], []]);
});

test('a play given in any order is set out as the legal play it makes', () => {
  const s = opening();
  const partial = partialFor(s, [{ from: 6, to: 4 }, { from: 8, to: 4 }]);
  assert.ok(partial);
  const play = completedPlay({ ...s, partial });
  assert.ok(s.legalMoves.includes(play), 'the server\'s own play, in its order');
  // the same checker moved 24/22/18 or 24/20/18 ends on the same board: one legal play
  assert.ok(completedPlay({ ...s, partial: partialFor(s, [{ from: 24, to: 22 }, { from: 22, to: 18 }]) }));
  assert.equal(partialFor(s, [{ from: 24, to: 19 }]), null, 'not a legal play');
  assert.equal(partialFor({ ...s, you: null }, [{ from: 6, to: 4 }, { from: 8, to: 4 }]), null);
});

test('the hint follows the play', () => {
  const s = opening();
  assert.equal(moveHint(s), 'Your move: pick a checker.');
  assert.equal(moveHint(select(s, 24)), 'Pick a highlighted point.');
  assert.equal(moveHint(clickPoint(select(s, 24), 18).state), 'Confirm your play (Enter), or undo.');
  assert.equal(moveHint(clickPoint(select(s, 24), 18).state, 'Suggest it.'), 'Suggest it.');
  assert.equal(moveHint({ ...s, legalMoves: [[]] }), 'No legal move: you must pass.');
});
