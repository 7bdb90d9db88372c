// Runs the phases motion.mjs plans. Each phase patches the board underneath (board.mjs's
// patchBoard: a few nodes change), then moves its sprites, small SVGs in a layer over the
// board, with the Web Animations API (transforms: the compositor moves them, the board is
// not repainted). At the end (or at ``finish``) the page renders its state: the animation
// never changes the state. Plans arriving while one runs queue, and everything runs faster.
import { checker, cubeMarkup, die, HEIGHT, patchBoard, WIDTH } from './board.mjs';
import { along } from './motion.mjs';

const MAX_QUEUE = 4;   // plans waiting: beyond this the board jumps to the final position
const SAMPLES = 16;    // keyframes along a path (motion.mjs eases; the keyframes are linear)
const BOX = { checker: 64, die: 56, cube: 56 };   // a sprite's box, in board units

function spriteMarkup(s) {
  if (s.kind === 'checker') return checker(0, 0, s.color);
  if (s.kind === 'die') return die(0, 0, s.value, s.color, false, s.size || 44);
  return cubeMarkup(0, 0, s.value);
}

/** The keyframes of a sprite along its path, in CSS pixels (``k``: pixels per board unit). */
export function keyframes(s, k) {
  const half = BOX[s.kind] / 2;
  return Array.from({ length: SAMPLES + 1 }, (_, n) => {
    const t = n / SAMPLES, { x, y } = along(s.path, t);
    const lift = s.kind === 'checker' ? 1 + 0.08 * Math.sin(Math.PI * t) : 1;
    const turn = s.spin ? s.spin * (1 - (1 - t) ** 2) : 0;
    return { offset: t, transform: `translate(${((x - half) * k).toFixed(2)}px, ${((y - half) * k).toFixed(2)}px) rotate(${turn.toFixed(1)}deg) scale(${lift.toFixed(3)})` };
  });
}

/**
 * ``motionPlayer({board, draw, idle, factor})``: ``draw(phase)`` is the markup of the board
 * under a phase, ``idle()`` renders the state once nothing moves, ``factor()`` is the speed's
 * duration factor (0: off). ``play(phases)`` queues a plan; ``finish()`` jumps to the end.
 */
export function motionPlayer({ board, draw, idle, factor }) {
  const plans = [];
  let current = null, anims = [], layer = null;

  function overlay() {
    const parent = board.parentElement;
    if (!layer) {
      layer = document.createElement('div');
      layer.className = 'sprite-layer';
      layer.setAttribute('aria-hidden', 'true');
      if (getComputedStyle(parent).position === 'static') parent.style.position = 'relative';
      parent.appendChild(layer);
    }
    // board units to pixels: the SVG's own mapping (its viewBox, letterboxed or not)
    const m = board.getScreenCTM(), p = parent.getBoundingClientRect();
    Object.assign(layer.style, { left: `${m.e - p.left - parent.clientLeft}px`, top: `${m.f - p.top - parent.clientTop}px`,
      width: `${WIDTH * m.a}px`, height: `${HEIGHT * m.a}px` });
    return m.a;
  }

  function clear() {
    for (const a of anims) a.cancel();
    anims = [];
    if (layer) layer.replaceChildren();
  }

  function next() {
    clear();
    while (current && !current.phases.length) current = plans.shift() || null;
    if (!current) { stop(); idle(); return; }
    const phase = current.phases.shift();
    patchBoard(board, draw(phase));
    const k = overlay();
    const dur = Math.max(phase.ms * factor(), 1);
    layer.innerHTML = phase.sprites.map(s => {
      const box = BOX[s.kind];
      return `<svg class="sprite ${s.kind}" data-via="${(s.via || []).join(' ')}" viewBox="${-box / 2} ${-box / 2} ${box} ${box}">` +
        `${spriteMarkup(s)}</svg>`;
    }).join('');
    const els = [...layer.children];
    phase.sprites.forEach((s, n) => {   // sized through the CSSOM (the CSP refuses style attributes)
      els[n].style.width = els[n].style.height = `${BOX[s.kind] * k}px`;
    });
    anims = phase.sprites.map((s, n) => els[n].animate(keyframes(s, k), { duration: dur, fill: 'forwards' }));
    speedUp();
    const mine = anims;
    Promise.all(anims.map(a => a.finished)).then(() => { if (anims === mine) next(); }, () => {});
  }

  function speedUp() { for (const a of anims) a.updatePlaybackRate(1 + plans.length); }   // the more waiting, the faster

  function stop() {
    clear();
    if (layer) { layer.remove(); layer = null; }   // sized for this board: gone when nothing moves
    current = null; plans.length = 0;
    board.dataset.animating = '0';
  }

  const api = {
    get busy() { return current !== null; },
    /** Queue a plan (motion.mjs's phases). Off, hidden (no frames come) or too far behind: none. */
    play(phases) {
      if (!phases.length) return;
      if (!factor() || document.visibilityState === 'hidden' || plans.length >= MAX_QUEUE || !board.animate) { this.finish(); return; }
      if (current) { plans.push({ phases: phases.slice() }); speedUp(); return; }
      current = { phases: phases.slice() };
      board.dataset.animating = '1';
      next();
    },
    /** Jump to the final position at once (a snapshot, a resync, the tab hidden). */
    finish() {
      const was = current !== null;
      stop();
      if (was) idle();
    },
  };
  addEventListener('resize', () => api.finish());   // the sprites are sized for the board as it was
  return api;
}
