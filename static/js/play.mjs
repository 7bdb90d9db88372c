// The play being made on the board, before it is sent (pure: no DOM, no clock). Which dice
// the steps made so far have used and which are left, what a click or a drop on a point
// does, and what the board shows for it. The legal plays come from the server (state.mjs
// filters them); this module only reads them.
import {
  canMoveNow, completedPlay, currentPosition, flatPartial, moveTo, moverPoint, mustPass, select, selectableSources,
  targetsFrom,
} from './state.mjs';
import { gettext as _ } from './lib/i18n.mjs';

/** The dice of a roll, one per move: doubles are four. */
export function rollDice(dice) {
  if (!dice) return [];
  return dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : dice.slice();
}

/**
 * The dice the partial play has used: ``{dice, used, left}``. Each step takes a die of its
 * own distance, else a bigger one (bearing off from below the die's point).
 */
export function diceUse(state) {
  const dice = rollDice(state.dice);
  const used = dice.map(() => false);
  for (const step of flatPartial(state)) {
    const from = step.from === 'bar' ? 25 : moverPoint(step.from, state.you);
    const to = step.to === 'off' ? 0 : moverPoint(step.to, state.you);
    const dist = from - to;
    let i = used.findIndex((u, k) => !u && dice[k] === dist);
    if (i < 0) i = used.findIndex((u, k) => !u && dice[k] > dist);
    if (i >= 0) used[i] = true;
  }
  return { dice, used, left: dice.filter((_, k) => !used[k]) };
}

/**
 * One flag per die drawn, true when it is used up. The board draws two dice for doubles:
 * the second greys after two moves, the first after all four.
 */
export function usedDice(state) {
  if (!state.dice || !state.partial.length) return [];
  const { dice, used } = diceUse(state);
  const n = used.filter(Boolean).length;
  return dice.length === 4 ? [n >= 4, n >= 2] : used;
}

/**
 * A click (or tap, or Enter on the keyboard's cursor) on point ``p`` (1..24, 'bar', 'off'):
 * with a checker picked up and ``p`` one of its targets, the checker moves there; else ``p``
 * picks up its checker (or puts the one picked up back). Returns ``{state, moved}``.
 */
export function clickPoint(state, p) {
  if (!canMoveNow(state) || p === null || p === undefined) return { state, moved: false };
  const picked = state.selected;
  if (picked !== null && picked !== undefined && targetsFrom(state, picked).has(p)) {
    return { state: moveTo(state, p), moved: true };
  }
  return { state: select(state, picked === p ? null : p), moved: false };
}

/** The checker dragged from ``from`` and dropped on ``to``: it moves there when that is a target. */
export function dropOn(state, from, to) {
  if (to !== null && canMoveNow(state) && targetsFrom(state, from).has(to)) {
    return { state: moveTo(state, to, from), moved: true };
  }
  return { state: select(state, null), moved: false };
}

/** What the board shows of the play being made (board.mjs's view, less the page's own parts). */
export function playView(state) {
  const movable = canMoveNow(state);
  const picked = state.selected !== null && state.selected !== undefined;
  return {
    pos: currentPosition(state),
    selectable: movable ? selectableSources(state) : [],
    selected: state.selected,
    targets: movable && picked ? [...targetsFrom(state, state.selected).keys()] : [],
    usedDice: state.actor === state.you ? usedDice(state) : [],
  };
}

/**
 * The legal play that ``steps`` (a play in any order, e.g. a team member's suggestion)
 * makes, as the partial play of ``state``: one group per step of the legal play that ends
 * in the same position; null when no legal play does.
 */
export function partialFor(state, steps) {
  if (!canMoveNow(state)) return null;
  const start = { ...state, partial: [] };
  const target = JSON.stringify(currentPosition({ ...start, partial: [steps] }));
  const play = (state.legalMoves || []).find(p => JSON.stringify(currentPosition({ ...start, partial: [p] })) === target);
  return play ? play.map(step => [step]) : null;
}

/** What the player on roll does next, in words ("Pick a highlighted point."). */
export function moveHint(state, done = _('Confirm your play (Enter), or undo.')) {
  if (mustPass(state)) return _('No legal move: you must pass.');
  if (completedPlay(state)) return done;
  return state.selected !== null && state.selected !== undefined ? _('Pick a highlighted point.') : _('Your move: pick a checker.');
}
