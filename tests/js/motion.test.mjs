// Unit tests of the animation planning (static/js/motion.mjs): node --test tests/js/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cubeXY, diceXY, placeXY, plaqueSize, renderBoard, resultMarkup, resultXY, sections } from '../../static/js/board.mjs';
import { along, chains, countAt, lastStepSound, planEvent, planSound, soundOf, speedFactor, without } from '../../static/js/motion.mjs';
import { turnChime } from '../../static/js/sound.mjs';
import { initialState, reduce, sign } from '../../static/js/state.mjs';

const boardOf = s => ({ board: s.board, whiteBar: s.whiteBar, blackBar: s.blackBar, whiteOff: s.whiteOff, blackOff: s.blackOff });
function putDown(pos, color, at) {
  const out = { ...pos, board: pos.board.slice() };
  if (at === 'bar' || at === 'off') out[color + (at === 'bar' ? 'Bar' : 'Off')] += 1;
  else out.board[at] += sign(color);
  return out;
}

const VIEW = { you: 'white', flipped: false, bigLabels: false };
const fixture = JSON.parse(readFileSync(new URL('./fixtures/game1.json', import.meta.url)));

function stateWith(board, extra = {}) {
  const s = initialState();
  const b = new Array(25).fill(0);
  for (const [p, n] of Object.entries(board)) b[p] = n;
  return { ...s, game: 7, version: 10, phase: 'move', turn: 'black', actor: 'black', you: 'white', board: b,
    dice: [6, 5], cube: { value: 1, owner: null, enabled: true }, ...extra };
}
const moveMsg = (color, moves) => ({ t: 'move', v: 11, game: 7, d: { color, moves, dice: [6, 5] } });
const close = (a, b) => Math.abs(a.x - b.x) < 1e-6 && Math.abs(a.y - b.y) < 1e-6;

test('a combined move is one chain, seen passing its intermediate point', () => {
  const prev = stateWith({ 1: -2, 12: -5 });
  const phases = planEvent(prev, moveMsg('black', [{ from: 1, to: 7 }, { from: 7, to: 12 }]), VIEW);
  assert.equal(phases.length, 1);
  const [sprite] = phases[0].sprites;
  assert.deepEqual(sprite.via, [1, 7, 12]);
  assert.ok(close(sprite.path[0], placeXY({ at: 1, i: 1 }, VIEW)), 'from the top of its stack');
  assert.ok(close(sprite.path[1], placeXY({ at: 7, i: 0 }, VIEW)), 'through the 7-point');
  assert.ok(close(sprite.path[2], placeXY({ at: 12, i: 5 }, VIEW)), 'onto the 12-point (the 6th checker: drawn on the 5th place)');
  // underneath: the board without the moving checker
  assert.equal(phases[0].pos.board[1], -1);
  assert.equal(phases[0].pos.board[12], -5);
  assert.deepEqual(chains([{ from: 24, to: 18 }, { from: 13, to: 7 }]).length, 2);
});

test('a hit: the mover lands, then the hit checker travels to the bar', () => {
  const prev = stateWith({ 1: -2, 5: 1, 6: 5 }, { whiteBar: 1 });
  const phases = planEvent(prev, moveMsg('black', [{ from: 1, to: 5 }, { from: 1, to: 2 }]), VIEW);
  // phase 1: 1 -> 5 (the blot still there); phase 2: the white blot from 5 to the bar; phase 3: 1 -> 2
  assert.deepEqual(phases.map(p => p.sprites.map(s => `${s.color}:${s.via.join('>')}`)), [['black:1>5'], ['white:5>bar'], ['black:1>2']]);
  assert.equal(phases[0].pos.board[5], 1, 'the blot stays until it is hit');
  const hit = phases[1];
  assert.ok(close(hit.sprites[0].path[1], placeXY({ at: 'bar', color: 'white', i: 1 }, VIEW)), 'onto the bar, above the checker already there');
  assert.equal(hit.pos.whiteBar, 1, 'the bar underneath: without the travelling checker');
  assert.equal(hit.pos.board[5], -1, 'the mover has landed');
});

test('each phase is heard as its checker lands: set down, a hit on the bar, borne off into the tray', () => {
  const hit = planEvent(stateWith({ 1: -2, 5: 1, 6: 5 }), moveMsg('black', [{ from: 1, to: 5 }, { from: 1, to: 2 }]), VIEW);
  assert.deepEqual(hit.map(p => [p.start, p.land]), [[undefined, 'move'], [undefined, 'hit'], [undefined, 'move']]);
  const off = planEvent(stateWith({ 2: 2 }, { whiteOff: 13, actor: 'white', turn: 'white' }),
    moveMsg('white', [{ from: 2, to: 'off' }, { from: 2, to: 'off' }]), VIEW);
  assert.deepEqual(off.map(p => p.land), ['bearOff', 'bearOff']);
  const [roll] = planEvent(stateWith({}, { phase: 'turn', dice: null }), { t: 'roll', v: 11, game: 7, d: { color: 'black', dice: [4, 2] } }, VIEW);
  assert.deepEqual([roll.start, roll.land], ['roll', undefined], 'the dice are heard as they are thrown');
  const [cube] = planEvent(stateWith({}), { t: 'double', v: 11, game: 7, d: { color: 'white', cubeValue: 2 } }, VIEW);
  assert.equal(cube.land, 'cube');
  // not animated: one sound for the whole event, the loudest of what happened
  assert.equal(soundOf(stateWith({ 1: -2, 5: 1 }), 'black', [{ from: 1, to: 5 }, { from: 5, to: 9 }]), 'hit');
  assert.equal(soundOf(stateWith({ 2: 2 }), 'white', [{ from: 2, to: 'off' }]), 'bearOff');
  assert.equal(soundOf(stateWith({ 1: -2 }), 'black', [{ from: 1, to: 4 }]), 'move');
});

test('a game\'s end: the result comes down onto the middle of the board and is then drawn there', () => {
  const prev = stateWith({ 1: -2, 6: 5 }, { phase: 'move' });
  const end = { t: 'game_end', v: 11, game: 7, d: { winner: 'white', kind: 'gammon', reason: 'resign', points: 2, cubeValue: 1, matchOver: false } };
  const [phase] = planEvent(prev, end, VIEW);
  const [plaque] = phase.sprites;
  assert.equal(plaque.kind, 'result');
  assert.deepEqual(plaque.plaque, { color: 'white', title: 'White wins', detail: '2 points · gammon' });
  assert.ok(close(plaque.path[plaque.path.length - 1], resultXY(VIEW)), 'it settles where the board draws it');
  assert.ok(plaque.path[0].y < plaque.path[1].y, 'from above');
  assert.equal(phase.result, null, 'not drawn underneath while it comes');
  assert.deepEqual(phase.pos.board, prev.board, 'the final position stays as the server has it');
  assert.equal(phase.land, 'gameEnd');
  assert.equal(planEvent(prev, { ...end, d: { ...end.d, matchOver: true } }, VIEW)[0].land, 'matchEnd');
  const named = planEvent(prev, end, { ...VIEW, plaque: r => ({ color: r.winner, title: 'Ann wins', detail: '' }) });
  assert.equal(named[0].sprites[0].plaque.title, 'Ann wins', 'the page names the players');
  // drawn: the plaque with its words (escaped); a new game (no result) has none
  const markup = renderBoard({ pos: prev, you: 'white', result: { color: 'black', title: '<b>Bo</b> wins', detail: '1 point · single' } });
  assert.match(markup, /class="result black"/);
  assert.match(markup, /&lt;b&gt;Bo&lt;\/b&gt; wins/);
  assert.doesNotMatch(renderBoard({ pos: prev, you: 'white' }), /class="result /);
  assert.deepEqual(planEvent(prev, { ...end, v: 13 }, VIEW), [], 'a gap: the resync jumps to the result');
});

test('entering from the bar and bearing off go from the bar and into the tray', () => {
  const enter = planEvent(stateWith({ 19: -3 }, { blackBar: 2 }), moveMsg('black', [{ from: 'bar', to: 3 }]), VIEW);
  assert.ok(close(enter[0].sprites[0].path[0], placeXY({ at: 'bar', color: 'black', i: 1 }, VIEW)));
  assert.equal(enter[0].pos.blackBar, 1);
  const off = planEvent(stateWith({ 2: 2 }, { whiteOff: 13, actor: 'white', turn: 'white' }),
    moveMsg('white', [{ from: 2, to: 'off' }, { from: 2, to: 'off' }]), VIEW);
  assert.equal(off.length, 2);
  assert.ok(close(off[1].sprites[0].path[1], placeXY({ at: 'off', color: 'white', i: 14 }, VIEW)), 'the 15th in the tray');
  assert.equal(off[1].pos.whiteOff, 14);
});

test('the player\'s own play made on the board is not shown again; an unrelated event plans nothing', () => {
  const prev = stateWith({ 8: 3, 6: 5 }, { actor: 'white', turn: 'white', partial: [[{ from: 8, to: 5 }], [{ from: 6, to: 5 }]] });
  assert.deepEqual(planEvent(prev, moveMsg('white', [{ from: 8, to: 5 }, { from: 6, to: 5 }]), VIEW), []);
  assert.equal(planEvent(prev, moveMsg('white', [{ from: 8, to: 2 }]), VIEW).length, 1, 'an automatic play is shown');
  assert.deepEqual(planEvent(prev, { ...moveMsg('white', [{ from: 8, to: 2 }]), v: 13 }), [], 'a gap: the resync jumps');
  assert.deepEqual(planEvent(prev, { t: 'snapshot', v: 11, d: {} }, VIEW), []);
  assert.deepEqual(planEvent(prev, { t: 'chat', d: {} }, VIEW), []);
});

test('the dice tumble in from the roller\'s side and settle where the board draws them', () => {
  const prev = stateWith({ 6: 5 }, { phase: 'turn', dice: null });
  const [phase] = planEvent(prev, { t: 'roll', v: 11, game: 7, d: { color: 'black', dice: [4, 2] } }, VIEW);
  assert.equal(phase.dice, null, 'no dice underneath');
  assert.deepEqual(phase.sprites.map(s => s.value), [4, 2]);
  for (const [i, s] of phase.sprites.entries()) {
    const end = diceXY({ ...VIEW, diceColor: 'black' }, i, 2);
    assert.ok(close(s.path[s.path.length - 1], end));
    assert.ok(s.path[0].x < end.x, 'Black (the opponent) throws on the left half, from its left');
    assert.notEqual(s.spin, 0);
  }
});

test('the cube turns when offered and travels to the taker', () => {
  const prev = stateWith({}, { cube: { value: 1, owner: null, enabled: true } });
  const [offer] = planEvent(prev, { t: 'double', v: 11, game: 7, d: { color: 'white', cubeValue: 2 } }, VIEW);
  assert.equal(offer.sprites[0].value, 2);
  assert.equal(offer.cube, null);
  const [take] = planEvent(prev, { t: 'take', v: 11, game: 7, d: { color: 'black', cubeValue: 2 } }, VIEW);
  assert.ok(close(take.sprites[0].path[0], cubeXY({ owner: null }, VIEW)));
  assert.ok(close(take.sprites[0].path[1], cubeXY({ owner: 'black' }, VIEW)));
  assert.ok(take.sprites[0].path[1].y < take.sprites[0].path[0].y, 'to Black\'s side: the top for White');
});

test('every move of a recorded game ends where the next state has its checkers', () => {
  let state = reduce(initialState(), fixture.first);
  let moves = 0;
  for (const msg of fixture.events) {
    const phases = planEvent(state, msg, VIEW);
    const next = reduce(state, msg);
    if (msg.t === 'move' && msg.d.moves.length) {
      moves += 1;
      const last = phases[phases.length - 1];
      // the last phase's board, with each sprite put down at its end, is the next position
      let pos = last.pos;
      for (const s of last.sprites) {
        const at = s.via[s.via.length - 1];
        assert.ok(close(s.path[s.path.length - 1], placeXY({ at, color: s.color, i: countAt(pos, s.color, at) }, VIEW)), `${msg.v} ${at}`);
        pos = putDown(pos, s.color, at);
      }
      assert.deepEqual(boardOf(pos), boardOf(next), `${msg.v}`);
    }
    state = next;
  }
  assert.ok(moves > 10);
});

test('speeds: off, fast, normal, slow; "auto" follows prefers-reduced-motion; paths are eased', () => {
  assert.equal(speedFactor('off'), 0);
  assert.ok(speedFactor('fast') < speedFactor('normal') && speedFactor('normal') < speedFactor('slow'));
  assert.equal(speedFactor('auto', true), 0);
  assert.equal(speedFactor('auto', false), 1);
  assert.equal(speedFactor('normal', true), 1, 'a chosen speed wins over the device');
  const path = [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 100 }];
  assert.deepEqual(along(path, 0), { x: 0, y: 0 });
  assert.deepEqual(along(path, 1), { x: 100, y: 100 });
  assert.ok(close(along(path, 0.5), { x: 100, y: 0 }), 'half way along: the corner');
});

test('the board\'s markup splits into its top-level sections (patchBoard parses only the changed ones)', () => {
  const markup = renderBoard({ pos: stateWith({ 1: -2, 6: 5 }), you: 'white', dice: [3, 1], diceColor: 'white',
    cube: { value: 2, owner: 'black', enabled: true }, result: { color: 'white', title: 'A wins', detail: '1 point' } });
  const parts = sections(markup);
  assert.deepEqual(parts.map(p => p.match(/^<g class="([\w-]+)"/)[1]), ['ground', 'stacks', 'cube-layer', 'dice-layer', 'result-layer', 'marks', 'hits']);
  assert.equal(parts.join(''), markup);
  assert.equal(sections('<g><g></g></g>text'), null, 'text outside a group: parsed whole');
  assert.equal(sections('<rect/><g></g>'), null);
  assert.deepEqual(sections(''), []);
});

test('an event not seen moving is heard once: the loudest of what its phases would sound as they land', () => {
  const sound = (prev, msg) => planSound(planEvent(prev, msg, VIEW));
  const hit = [{ from: 1, to: 5 }, { from: 1, to: 2 }];
  assert.equal(sound(stateWith({ 1: -2, 5: 1, 6: 5 }), moveMsg('black', hit)), 'hit');
  assert.equal(sound(stateWith({ 1: -2, 5: 1, 6: 5 }), moveMsg('black', hit)), soundOf(stateWith({ 1: -2, 5: 1, 6: 5 }), 'black', hit));
  const off = stateWith({ 2: 2, 6: 1 }, { whiteOff: 12, actor: 'white', turn: 'white' });
  assert.equal(sound(off, moveMsg('white', [{ from: 6, to: 1 }, { from: 2, to: 'off' }])), 'bearOff');
  assert.equal(sound(stateWith({ 1: -2 }), moveMsg('black', [{ from: 1, to: 4 }])), 'move');
  assert.equal(sound(stateWith({}, { phase: 'turn', dice: null }), { t: 'roll', v: 11, game: 7, d: { color: 'black', dice: [4, 2] } }), 'roll');
  assert.equal(sound(stateWith({}), { t: 'double', v: 11, game: 7, d: { color: 'white', cubeValue: 2 } }), 'cube');
  const raccoon = planEvent(stateWith({}, { cube: { value: 4, owner: 'black', enabled: true } }), { t: 'raccoon', v: 11, game: 7, d: { color: 'white', cubeValue: 8 } }, VIEW);
  assert.equal(raccoon[0].sprites[0].value, 8, 'a raccoon turns the cube again, where it is');
  assert.equal(planSound(raccoon), 'cube');
  const end = { t: 'game_end', v: 11, game: 7, d: { winner: 'white', kind: 'single', reason: 'resign', points: 1, cubeValue: 1 } };
  assert.equal(sound(stateWith({}), end), 'gameEnd');
  assert.equal(sound(stateWith({}), { ...end, d: { ...end.d, matchOver: true } }), 'matchEnd');
  // not the next event, the player's own play already made, no step: silent
  assert.equal(sound(stateWith({ 1: -2 }), { ...moveMsg('black', [{ from: 1, to: 4 }]), v: 12 }), null);
  assert.equal(sound(stateWith({ 1: -2 }), moveMsg('black', [])), null);
});

test('the turn\'s chime: yours when the game comes to you, theirs when it leaves, none for a watcher or the first state', () => {
  assert.equal(turnChime('black', 'white', 'white'), 'yourTurn');
  assert.equal(turnChime('white', 'black', 'white'), 'theirTurn');
  assert.equal(turnChime('white', 'white', 'white'), null);
  assert.equal(turnChime('black', 'white', null), null, 'a watcher');
  assert.equal(turnChime(null, 'white', 'white'), null, 'the first state seen');
  assert.equal(turnChime('white', null, 'white'), null, 'nobody to act');
  assert.equal(turnChime('others', 7, 7), 'yourTurn', 'a chouette: the game waits for you');
});

test('the step the player has just made on the board is heard as he makes it: set down, a hit, borne off', () => {
  const mine = (board, partial, extra = {}) => stateWith(board, { actor: 'white', turn: 'white', you: 'white', partial, ...extra });
  assert.equal(lastStepSound(mine({ 13: 5, 10: -1 }, [])), null, 'nothing made yet');
  assert.equal(lastStepSound(mine({ 13: 5 }, [[{ from: 13, to: 8 }]])), 'move');
  assert.equal(lastStepSound(mine({ 13: 5, 3: -1 }, [[{ from: 13, to: 8 }], [{ from: 8, to: 3 }]])), 'hit', 'the second step hits');
  assert.equal(lastStepSound(mine({ 13: 5, 8: -1 }, [[{ from: 13, to: 8 }], [{ from: 13, to: 7 }]])), 'move', 'only the last step is heard');
  assert.equal(lastStepSound(mine({ 2: 1 }, [[{ from: 2, to: 'off' }]], { whiteOff: 14 })), 'bearOff');
});

test('a plaque keeps its words inside it: a long line in smaller type, a longer one pressed to fit', () => {
  const lines = m => [...m.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)].map(([, attrs, text]) => ({ attrs, text }));
  const short = lines(resultMarkup(444, 320, { color: 'white', title: 'ann wins', detail: '1 point · single' }));
  assert.deepEqual(short.map(l => l.attrs.match(/class="([^"]*)"/)[1]), ['title', 'detail']);
  assert.ok(!short.some(l => l.attrs.includes('textLength')));
  const long = lines(resultMarkup(444, 320, { color: 'black', title: 'alexandra (captain) wins', detail: 'Box -4 · alexandra takes the box' }));
  assert.equal(long[0].attrs.match(/class="([^"]*)"/)[1], 'title long', 'a long title: the smaller type');
  for (const big of [false, true]) {
    const huge = lines(resultMarkup(444, 320, { color: 'black', title: 'x'.repeat(60), detail: 'y'.repeat(90) }, big));
    for (const l of huge) {
      const room = Number(l.attrs.match(/textLength="(\d+)"/)[1]);
      assert.ok(room > 0 && room < plaqueSize(big).w - 90 * (big ? 1.6 : 1), `pressed inside the plaque: ${room}`);
      assert.match(l.attrs, /lengthAdjust="spacingAndGlyphs"/);
    }
  }
});
