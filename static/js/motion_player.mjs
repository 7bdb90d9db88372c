// Runs the phases motion.mjs plans on the board's SVG, one frame at a time
// (requestAnimationFrame). Each phase draws its board underneath once, then moves its
// sprites; at the end (or at ``finish``) the page renders its state: the animation never
// changes the state. Plans arriving while one runs queue, and the queue runs faster.
import { checker, cubeMarkup, die } from './board.mjs';
import { along } from './motion.mjs';

const MAX_QUEUE = 4;   // plans waiting: beyond this the board jumps to the final position

function spriteMarkup(s) {
  if (s.kind === 'checker') return checker(0, 0, s.color);
  if (s.kind === 'die') return die(0, 0, s.value, s.color, false, s.size || 44);
  return cubeMarkup(0, 0, s.value);
}

/**
 * ``motionPlayer({board, draw, idle, factor})``: ``draw(phase)`` is the markup of the board
 * under a phase, ``idle()`` renders the state once nothing moves, ``factor()`` is the speed's
 * duration factor (0: off). ``play(phases)`` queues a plan; ``finish()`` jumps to the end.
 */
export function motionPlayer({ board, draw, idle, factor, onPhase = () => {} }) {
  const plans = [];
  let current = null, frame = null;

  function setBusy(on) { board.dataset.animating = on ? '1' : '0'; }

  function startPhase(now) {
    while (current && !current.phases.length) current = plans.shift() || null;
    if (!current) { stop(); idle(); return false; }
    const phase = current.phases.shift();
    const speedUp = 1 + plans.length;   // the more waiting, the faster
    phase.start = now; phase.dur = Math.max(phase.ms * factor() / speedUp, 1);
    board.innerHTML = draw(phase) + '<g class="sprites">' +
      phase.sprites.map(s => `<g class="sprite ${s.kind}" data-via="${(s.via || []).join(' ')}">${spriteMarkup(s)}</g>`).join('') + '</g>';
    phase.els = [...board.querySelectorAll('.sprites > .sprite')];
    current.phase = phase;
    onPhase(phase);
    place(phase, 0);
    return true;
  }

  function place(phase, t) {
    phase.sprites.forEach((s, k) => {
      const { x, y } = along(s.path, t);
      const lift = s.kind === 'checker' ? 1 + 0.08 * Math.sin(Math.PI * t) : 1;
      const turn = s.spin ? s.spin * (1 - (1 - t) ** 2) : 0;
      phase.els[k].setAttribute('transform', `translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${turn.toFixed(1)}) scale(${lift.toFixed(3)})`);
    });
  }

  function tick(now) {
    frame = null;
    if (!current) return;
    const phase = current.phase;
    const t = Math.min((now - phase.start) / phase.dur, 1);
    place(phase, t);
    if (t >= 1 && !startPhase(now)) return;
    frame = requestAnimationFrame(tick);
  }

  function stop() {
    if (frame !== null) cancelAnimationFrame(frame);
    frame = null; current = null; plans.length = 0;
    setBusy(false);
  }

  return {
    get busy() { return current !== null; },
    /** Queue a plan (motion.mjs's phases). Off, hidden (no frames come) or too far behind: none. */
    play(phases) {
      if (!phases.length) return;
      if (!factor() || document.visibilityState === 'hidden' || plans.length >= MAX_QUEUE) { this.finish(); return; }
      if (current) { plans.push({ phases: phases.slice() }); return; }
      current = { phases: phases.slice() };
      setBusy(true);
      startPhase(performance.now());
      if (current) frame = requestAnimationFrame(tick);
    },
    /** Jump to the final position at once (a snapshot, a resync, the tab hidden). */
    finish() {
      const was = current !== null;
      stop();
      if (was) idle();
    },
  };
}
