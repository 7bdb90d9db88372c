// The board's movement, planned (pure: no DOM, no clock). From the state before a server
// event and the event, ``planEvent`` lists the phases of its animation: each phase is a
// board to draw underneath (``pos``, ``dice``, ``cube``) and sprites moving over it along
// paths in board coordinates (board.mjs's). A player (motion_player.mjs) runs them, then
// the page renders the state itself: the animation is a view, never the state. A phase names
// the sound heard when it starts (``start``: the dice thrown) or when its sprites land
// (``land``: a checker set down, a hit checker on the bar, one borne off into the tray).
import { cubeXY, diceXY, placeXY, plaqueSize, resultXY } from './board.mjs';
import { applyStep, applySteps, currentPosition, flatPartial, sign } from './state.mjs';
import { colorName, resultPlaque } from './texts.mjs';

/** Duration factor of each speed setting (0: no animation). "auto": normal, or off when the
 *  device asks for reduced motion. */
export const SPEEDS = { off: 0, fast: 0.5, normal: 1, slow: 1.8 };
export function speedFactor(setting, reducedMotion = false) {
  if (!setting || setting === 'auto') return reducedMotion ? 0 : 1;
  return SPEEDS[setting] ?? 1;
}

// Milliseconds at normal speed.
export const MS = { leg: 80, perPx: 0.4, hit: 260, dice: 420, cube: 380, result: 520 };

/** The one sound of ``color`` playing ``steps`` from ``start`` (no animation: one per event). */
export function soundOf(start, color, steps) {
  if (applySteps(start, color, steps).hits) return 'hit';
  return steps.some(s => s.to === 'off') ? 'bearOff' : 'move';
}

/** The sound of the step the player has just made on the board (the last of ``state.partial``),
 *  heard as he makes it (his play is not heard again when the server confirms it); null: none. */
export function lastStepSound(state) {
  const steps = state.partial[state.partial.length - 1];
  if (!steps) return null;
  return soundOf(currentPosition({ ...state, partial: state.partial.slice(0, -1) }), state.you, steps);
}

const posOf = s => ({ board: s.board.slice(), whiteBar: s.whiteBar, blackBar: s.blackBar, whiteOff: s.whiteOff, blackOff: s.blackOff });

/** How many checkers of ``color`` stand at ``at`` (a point, 'bar' or 'off'). */
export function countAt(pos, color, at) {
  if (at === 'bar' || at === 'off') return pos[color + (at === 'bar' ? 'Bar' : 'Off')];
  const n = pos.board[at] * sign(color);
  return n > 0 ? n : 0;
}

/** ``pos`` less one checker of ``color`` at ``at`` (the one a sprite shows instead). */
export function without(pos, color, at) {
  const out = { ...pos, board: pos.board.slice() };
  if (at === 'bar' || at === 'off') out[color + (at === 'bar' ? 'Bar' : 'Off')] -= 1;
  else out.board[at] -= sign(color);
  return out;
}

const dist = (a, b) => Math.hypot(b.x - a.x, b.y - a.y);
export const pathLength = path => path.slice(1).reduce((sum, p, i) => sum + dist(path[i], p), 0);
const legMs = path => (path.length - 1) * MS.leg + pathLength(path) * MS.perPx;

/**
 * The steps of a move as chains: a checker that moves on from where it landed (24/18/13)
 * is one chain, seen passing its intermediate points.
 */
export function chains(steps) {
  const out = [];
  for (const step of steps) {
    const last = out[out.length - 1];
    if (last && step.from === last[last.length - 1].to && step.from !== 'off') last.push(step);
    else out.push([step]);
  }
  return out;
}

/** The phases of ``color`` moving ``steps`` from the position ``start`` (a server position). */
export function planMove(start, color, steps, view, extras = {}) {
  const opp = color === 'white' ? 'black' : 'white';
  const phases = [];
  let pos = posOf(start);
  for (const chain of chains(steps)) {
    const from = chain[0].from;
    const path = [placeXY({ at: from, color, i: countAt(pos, color, from) - 1 }, view)];
    const via = [from];
    const base = without(pos, color, from);
    const hits = [];
    for (const step of chain) {
      const r = applyStep(pos, color, step);
      pos = r.pos;
      path.push(placeXY({ at: step.to, color, i: countAt(pos, color, step.to) - 1 }, view));
      via.push(step.to);
      if (r.hit) hits.push(step.to);
    }
    phases.push({ ...extras, pos: base, ms: legMs(path), land: via[via.length - 1] === 'off' ? 'bearOff' : 'move',
      sprites: [{ kind: 'checker', color, path, via }] });
    if (hits.length) {
      let after = pos;
      const sprites = [];
      for (const [k, p] of hits.entries()) {
        const onBar = pos[opp + 'Bar'] - hits.length + k;   // the bar's stack before this one lands
        sprites.push({ kind: 'checker', color: opp, via: [p, 'bar'],
          path: [placeXY({ at: p, color: opp, i: 0 }, view), placeXY({ at: 'bar', color: opp, i: onBar }, view)] });
        after = without(after, opp, 'bar');
      }
      phases.push({ ...extras, pos: after, ms: MS.hit, land: 'hit', sprites });
    }
  }
  return phases;
}

/** The dice of ``color`` thrown onto the board: they tumble in from the roller's side and settle. */
export function planRoll(start, color, dice, view, extras = {}) {
  const v = { ...view, diceColor: color };
  const sprites = dice.map((value, i) => {
    const end = diceXY(v, i, dice.length);
    const side = end.x > 444 ? 1 : -1;
    const path = view.bigLabels
      ? [{ x: end.x - 150, y: end.y + 160 - i * 30 }, { x: end.x - 60, y: end.y - 40 }, end]
      : [{ x: end.x + side * 170, y: end.y + 120 - i * 60 }, { x: end.x + side * 50, y: end.y - 30 + i * 20 }, end];
    return { kind: 'die', color, value, size: end.s, path, spin: (i ? -1 : 1) * 540 };
  });
  return [{ ...extras, pos: posOf(start), dice: null, sprites, ms: MS.dice, start: 'roll' }];
}

/** The cube turned (offered) or carried to its new owner (taken). */
export function planCube(start, from, to, value, view, extras = {}) {
  const path = [cubeXY(from, view), cubeXY(to, view)];
  return [{ ...extras, pos: posOf(start), cube: null, ms: MS.cube, land: 'cube',
    sprites: [{ kind: 'cube', value, path, spin: from.owner === to.owner ? 360 : 180 }] }];
}

/**
 * A game's end: the result (texts.mjs's plaque, or ``plaque`` given) comes down onto the
 * middle of the board and settles there; the page then draws it as part of the board.
 */
export function planResult(start, result, view, extras = {}, plaque = resultPlaque(result, colorName)) {
  const end = resultXY(view);
  return [{ ...extras, pos: posOf(start), dice: null, result: null, ms: MS.result, land: result.matchOver ? 'matchEnd' : 'gameEnd',
    sprites: [{ kind: 'result', plaque, big: !!view.bigLabels, fade: true, path: [{ x: end.x, y: end.y - plaqueSize(view.bigLabels).h * 1.6 }, end] }] }];
}

const sameSteps = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The animation of server event ``msg`` arriving in state ``prev`` (state.mjs's), for a view
 * ``{you, flipped, bigLabels, plaque?}`` (``plaque(result)``: the result's words on the board): a list of phases, empty when nothing moves (or the event is
 * not the next one: a gap or a snapshot jumps to the final position).
 */
export function planEvent(prev, msg, view) {
  const d = msg.d || {};
  if (msg.t === 'snapshot' || msg.v !== (prev.version ?? 0) + 1 || (msg.game !== undefined && msg.game !== prev.game)) return [];
  const extras = { dice: prev.dice, diceColor: prev.actor || prev.turn, cube: prev.cube };
  if (msg.t === 'move') {
    // the player's own play, already made on the board: nothing left to show moving
    if (prev.partial && prev.partial.length && sameSteps(flatPartial(prev), d.moves)) return [];
    return planMove(prev, d.color, d.moves || [], view, { ...extras, diceColor: d.color });
  }
  if (msg.t === 'roll') return planRoll(prev, d.color, d.dice, view, { ...extras, dice: null });
  if (msg.t === 'opening_roll' && d.first) {
    return planRoll(prev, d.first, d.first === 'white' ? [d.white, d.black] : [d.black, d.white], view, { ...extras, dice: null });
  }
  if (msg.t === 'game_end') return planResult(prev, d, view, extras, view.plaque ? view.plaque(d) : undefined);
  if (!prev.cube || !prev.cube.enabled) return [];
  if (msg.t === 'double') return planCube(prev, prev.cube, prev.cube, d.cubeValue, view, extras);
  if (msg.t === 'take' || msg.t === 'beaver') {
    return planCube(prev, prev.cube, { ...prev.cube, owner: d.color }, d.cubeValue, view, extras);
  }
  if (msg.t === 'raccoon') return planCube(prev, prev.cube, prev.cube, d.cubeValue, view, extras);   // turned again, in place
  return [];
}

/**
 * The one sound of a plan shown at once (animation off, a hidden tab, too far behind): one per
 * event, the loudest of those its phases would have made as they landed (a hit, a checker borne
 * off, the end, else the first: the dice thrown, a checker set down, the cube). null: silent.
 */
export function planSound(phases) {
  const heard = phases.flatMap(p => [p.start, p.land]).filter(Boolean);
  return ['hit', 'bearOff', 'matchEnd', 'gameEnd'].find(name => heard.includes(name)) || heard[0] || null;
}

/** Where a sprite is at ``t`` (0..1) along its path, eased in and out. */
export function along(path, t) {
  const e = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
  const total = pathLength(path);
  if (!total) return { ...path[path.length - 1] };
  let left = e * total;
  for (let k = 1; k < path.length; k++) {
    const leg = dist(path[k - 1], path[k]);
    if (left <= leg || k === path.length - 1) {
      const f = leg ? Math.min(left / leg, 1) : 1;
      return { x: path[k - 1].x + (path[k].x - path[k - 1].x) * f, y: path[k - 1].y + (path[k].y - path[k - 1].y) * f };
    }
    left -= leg;
  }
  return { ...path[path.length - 1] };
}
