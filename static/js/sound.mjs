// The board's sounds, synthesised with WebAudio (no recordings): a small physical model.
// An impact is a short noise burst (the excitation) through a few damped resonances (the
// modes of a checker, a die or the cube on a wooden board); dice shaken in a cup are bursts
// of high, short clicks; rolled, a run of bounces that get quicker and softer. Original work
// of this project, under its licence (see README, "Sounds").
//
// Nothing plays before the page's first gesture (a click, a tap or a key: the browser's rule)
// or while the sound option is off; ``volume`` (0..1) scales everything.

/**
 * The turn's chime when the one to act changes from ``before`` to ``now`` (``you``: the viewer;
 * none for a watcher, nor for the first state seen): ``yourTurn``, ``theirTurn`` or null.
 */
export function turnChime(before, now, you) {
  if (now === before || now == null || you == null || before === null) return null;
  return now === you ? 'yourTurn' : 'theirTurn';
}

const MODES = {
  checker: { f: 820, ratios: [1, 2.32, 4.1], decay: 0.055, q: 9, gain: 0.5 },
  heavy: { f: 520, ratios: [1, 2.1, 3.7], decay: 0.08, q: 8, gain: 0.7 },
  die: { f: 2300, ratios: [1, 1.9, 2.8], decay: 0.025, q: 12, gain: 0.25 },
  cube: { f: 380, ratios: [1, 2.6, 4.4], decay: 0.12, q: 6, gain: 0.6 },
};

/**
 * ``sounds(opts)``: ``{roll, move, hit, bearOff, cube, yourTurn, theirTurn, gameEnd, matchEnd}``,
 * each a function that plays now (or does nothing: sound off, no gesture yet, no WebAudio).
 * ``opts.sound`` switches them, ``opts.volume`` (0..1) sets the level.
 */
export function sounds(opts) {
  let ctx = null, master = null, noise = null, gestured = false;
  // the audio graph is built at the first gesture (when nothing moves yet), not at the first
  // sound, which comes as a checker lands: its set-up would cost that animation a frame
  const unlock = () => { gestured = true; audio(); if (ctx && ctx.state === 'suspended') ctx.resume(); };
  for (const type of ['pointerdown', 'keydown', 'touchstart']) addEventListener(type, unlock, { capture: true, passive: true });

  function audio() {
    if (!opts.sound || !gestured) return null;
    try {
      if (!ctx) {
        ctx = new (window.AudioContext || window.webkitAudioContext)();
        master = ctx.createGain();
        master.connect(ctx.destination);
        noise = ctx.createBuffer(1, Math.floor(ctx.sampleRate * 0.05), ctx.sampleRate);
        const data = noise.getChannelData(0);
        for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
      }
      master.gain.value = Math.max(0, Math.min(1, opts.volume ?? 0.7));
      return ctx;
    } catch { return null; }   // no audio: stay quiet
  }

  /** One impact at time ``t``: a noise burst exciting the body's modes. */
  function impact(t, kind, level = 1, pitch = 1) {
    const m = MODES[kind];
    const src = ctx.createBufferSource();
    src.buffer = noise;
    const env = ctx.createGain();
    env.gain.setValueAtTime(m.gain * level, t);
    env.gain.exponentialRampToValueAtTime(0.001, t + 0.012);
    src.connect(env);
    m.ratios.forEach((r, k) => {
      const band = ctx.createBiquadFilter();
      band.type = 'bandpass';
      band.frequency.value = m.f * r * pitch * (0.97 + Math.random() * 0.06);
      band.Q.value = m.q;
      const tail = ctx.createGain();
      const amp = (k ? 0.5 / k : 1) * level * 3;
      tail.gain.setValueAtTime(amp, t);
      tail.gain.exponentialRampToValueAtTime(0.0005, t + m.decay * (k ? 0.6 : 1) + 0.01);
      env.connect(band).connect(tail).connect(master);
    });
    src.start(t);
    src.stop(t + 0.05);
  }

  /** A soft struck bar (your turn, the end): a sine and its fourth harmonic, decaying. */
  function chime(t, f, level = 0.25, len = 0.5) {
    for (const [mult, amp] of [[1, 1], [4, 0.15]]) {
      const osc = ctx.createOscillator(), g = ctx.createGain();
      osc.frequency.value = f * mult;
      g.gain.setValueAtTime(0.0001, t);
      g.gain.exponentialRampToValueAtTime(level * amp, t + 0.008);
      g.gain.exponentialRampToValueAtTime(0.0001, t + len / mult ** 0.5);
      osc.connect(g).connect(master);
      osc.start(t);
      osc.stop(t + len + 0.05);
    }
  }

  const play = (name, fn) => () => {
    const a = audio();
    if (!a) return;
    dispatchEvent(new CustomEvent('bg-sound', { detail: name }));   // what plays (for tests)
    fn(a.currentTime + 0.01);
  };

  return {
    // shaken in the cup (a few rattles), then thrown: bounces, quicker and softer
    roll: play('roll', t => {
      for (let k = 0; k < 5; k++) impact(t + k * 0.045 + Math.random() * 0.015, 'die', 0.35, 1.2);
      let at = t + 0.3, gap = 0.09;
      for (let k = 0; k < 7; k++) { impact(at, 'die', 1 - k * 0.12, 0.9 + Math.random() * 0.2); at += gap; gap *= 0.72; }
    }),
    move: play('move', t => impact(t, 'checker')),
    hit: play('hit', t => { impact(t, 'checker', 1.1); impact(t + 0.12, 'heavy', 0.9); }),
    bearOff: play('bearOff', t => { impact(t, 'checker', 0.8); impact(t + 0.08, 'heavy', 0.5, 1.3); }),
    cube: play('cube', t => { impact(t, 'cube'); impact(t + 0.09, 'cube', 0.5, 1.05); }),
    yourTurn: play('yourTurn', t => { chime(t, 660); chime(t + 0.14, 990, 0.2); }),
    theirTurn: play('theirTurn', t => chime(t, 440, 0.12, 0.3)),
    gameEnd: play('gameEnd', t => [523, 659, 784].forEach((f, k) => chime(t + k * 0.12, f, 0.2))),
    matchEnd: play('matchEnd', t => [523, 659, 784, 1047].forEach((f, k) => chime(t + k * 0.14, f, 0.22, 0.8))),
  };
}
