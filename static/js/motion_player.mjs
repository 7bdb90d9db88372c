// Runs the phases motion.mjs plans. Each phase patches the board underneath (board.mjs's
// patchBoard: a few nodes change), then moves its sprites, small SVGs in a layer over the
// board, with the Web Animations API (transforms: the compositor moves them, the board is
// not repainted). At the end (or at ``finish``) the page renders its state: the animation
// never changes the state. Plans arriving while one runs queue, and everything runs faster.
// A phase's sounds (motion.mjs's ``start`` and ``land``) go to ``sound(name)`` as the phase
// starts and as its sprites land: heard in time with what is seen, not when the event came.
import { checker, cubeMarkup, die, HEIGHT, patchBoard, plaqueSize, resultMarkup, WIDTH } from './board.mjs';
import { along, planSound } from './motion.mjs';

const MAX_QUEUE = 4;   // plans waiting: beyond this the board jumps to the final position
const SAMPLES = 16;    // keyframes along a path (motion.mjs eases; the keyframes are linear)
// a sprite's box, in board units
const BOXES = { checker: { w: 64, h: 64 }, die: { w: 56, h: 56 }, cube: { w: 56, h: 56 } };
const box = s => (s.kind === 'result' ? { w: plaqueSize(s.big).w + 8, h: plaqueSize(s.big).h + 8 } : BOXES[s.kind]);

function spriteMarkup(s) {
  if (s.kind === 'checker') return checker(0, 0, s.color);
  if (s.kind === 'die') return die(0, 0, s.value, s.color, false, s.size || 44);
  if (s.kind === 'result') return resultMarkup(0, 0, s.plaque, s.big);
  return cubeMarkup(0, 0, s.value);
}

/** The keyframes of a sprite along its path, in CSS pixels (``k``: pixels per board unit). */
export function keyframes(s, k) {
  const { w, h } = box(s);
  return Array.from({ length: SAMPLES + 1 }, (_, n) => {
    const t = n / SAMPLES, { x, y } = along(s.path, t);
    const lift = s.kind === 'checker' ? 1 + 0.08 * Math.sin(Math.PI * t) : 1;
    const turn = s.spin ? s.spin * (1 - (1 - t) ** 2) : 0;
    const frame = { offset: t, transform: `translate(${((x - w / 2) * k).toFixed(2)}px, ${((y - h / 2) * k).toFixed(2)}px) rotate(${turn.toFixed(1)}deg) scale(${lift.toFixed(3)})` };
    if (s.fade) frame.opacity = Math.min(1, t * 2).toFixed(2);
    return frame;
  });
}

/**
 * The first text laid out in a font (the plaque's, the cube's) and the first animation cost the
 * frame they come in (about 40 ms with the CPU slowed four times: bench/board_motion.py
 * --explain): paid once here, while nothing moves, on sprites nobody sees.
 */
function warmUp(board) {
  if (!board.isConnected || !board.animate) return;
  const host = document.createElement('div');
  host.className = 'sprite-layer warm-up';
  host.setAttribute('aria-hidden', 'true');
  host.style.visibility = 'hidden';
  const plaque = { color: 'white', title: 'Wins 0123456789', detail: '0123456789 · points' };
  host.innerHTML = [{ kind: 'checker', color: 'white' }, { kind: 'die', value: 5, color: 'black' }, { kind: 'cube', value: 64 },
    { kind: 'result', plaque }, { kind: 'result', plaque, big: true }]
    .map(s => `<svg class="warm ${s.kind}" viewBox="0 0 10 10">${spriteMarkup(s)}</svg>`).join('');   // not a .sprite: nothing moves
  board.parentElement.appendChild(host);
  for (const text of host.querySelectorAll('text')) text.getBBox();
  host.firstChild.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 1 }).finished.then(() => host.remove(), () => host.remove());
}

/**
 * ``motionPlayer({board, draw, idle, factor, sound})``: ``draw(phase)`` is the markup of the
 * board under a phase, ``idle()`` renders the state once nothing moves, ``factor()`` is the
 * speed's duration factor (0: off), ``sound(name)`` plays a phase's sound (optional).
 * ``play(phases)`` queues a plan; ``finish()`` jumps to the end; ``animates`` says whether a
 * plan given now would be seen moving (else the page gives the event's plan to ``heard``, which
 * plays its one sound at once: motion.mjs's ``planSound``).
 */
export function motionPlayer({ board, draw, idle, factor, sound = () => {} }) {
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
      const { w, h } = box(s);
      return `<svg class="sprite ${s.kind}" data-via="${(s.via || []).join(' ')}" viewBox="${-w / 2} ${-h / 2} ${w} ${h}">` +
        `${spriteMarkup(s)}</svg>`;
    }).join('');
    const els = [...layer.children];
    phase.sprites.forEach((s, n) => {   // sized through the CSSOM (the CSP refuses style attributes)
      els[n].style.width = `${box(s).w * k}px`;
      els[n].style.height = `${box(s).h * k}px`;
    });
    anims = phase.sprites.map((s, n) => els[n].animate(keyframes(s, k), { duration: dur, fill: 'forwards' }));
    speedUp();
    if (phase.start) sound(phase.start);
    const mine = anims;
    Promise.all(anims.map(a => a.finished)).then(() => {
      if (anims !== mine) return;
      if (phase.land) sound(phase.land);   // set down: heard as it lands
      next();
    }, () => {});
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
    /** Would a plan given now be seen moving? Off, hidden (no frames come), too far behind: no. */
    get animates() { return !!factor() && document.visibilityState !== 'hidden' && plans.length < MAX_QUEUE && !!board.animate; },
    /** Queue a plan (motion.mjs's phases); when it would not be seen moving, jump to the end. */
    play(phases) {
      if (!phases.length) return;
      if (!this.animates) { this.finish(); return; }
      if (current) { plans.push({ phases: phases.slice() }); speedUp(); return; }
      current = { phases: phases.slice() };
      board.dataset.animating = '1';
      next();
    },
    /** An event's plan not seen moving: its one sound (``planSound``), now. */
    heard(phases) {
      const name = planSound(phases);
      if (name) sound(name);
    },
    /** Jump to the final position at once (a snapshot, a resync, the tab hidden). */
    finish() {
      const was = current !== null;
      stop();
      if (was) idle();
    },
  };
  addEventListener('resize', () => api.finish());   // the sprites are sized for the board as it was
  const idleSoon = window.requestIdleCallback || (f => setTimeout(f, 300));
  idleSoon(() => { if (factor()) warmUp(board); }, { timeout: 2000 });
  return api;
}
