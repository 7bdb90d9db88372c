// The game page's options, sounds and your-turn notice (used by game.mjs).
import { csrfToken } from './lib/dom.mjs';

/**
 * The options: the player's settings (stored on the profile, /settings/, given in the page's
 * boot data), or for a visitor what this browser remembers.
 */
export function loadOptions(boot) {
  const prefs = boot.loggedIn ? {} : JSON.parse(localStorage.getItem('bg-prefs') || '{}');
  const saved = boot.settings || {};
  const animation = prefs.animation ?? saved.animation ?? 'auto';
  document.documentElement.dataset.animation = animation;
  return { animation, forced: prefs.forced ?? !!saved.forced, autoroll: prefs.autoroll ?? !!saved.autoroll,
    sound: prefs.sound ?? saved.sound !== false, flip: prefs.flip ?? saved.home === 'left',
    confirm: saved.confirm !== false, numbers: saved.numbers || 'mine' };
}

/** Keep option ``name`` (changed in the page): on the profile (``POST /settings.json``), or here. */
export function saveOption(boot, opts, name, onFail) {
  if (!boot.loggedIn) { localStorage.setItem('bg-prefs', JSON.stringify(opts)); return; }
  const change = name === 'flip' ? { home: opts.flip ? 'left' : 'right' } : { [name]: opts[name] };
  fetch('/settings.json', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrfToken() },
    body: JSON.stringify(change) }).then(r => { if (!r.ok) onFail(); }, onFail);
}

/** Tiny WebAudio beeps, silent while ``opts.sound`` is off. */
export function sounds(opts) {
  let audio = null;
  function beep(freqs, dur = 0.07, type = 'sine', gain = 0.08) {
    if (!opts.sound) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      let t = audio.currentTime;
      for (const f of freqs) {
        const o = audio.createOscillator(), g = audio.createGain();
        o.type = type; o.frequency.value = f;
        g.gain.setValueAtTime(gain, t); g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
        o.connect(g).connect(audio.destination); o.start(t); o.stop(t + dur);
        t += dur * 0.9;
      }
    } catch { /* no audio: stay quiet */ }
  }
  return {
    roll: () => beep([520, 660, 590], 0.04, 'square', 0.03),
    move: () => beep([880], 0.05, 'triangle'),
    hit: () => beep([220, 150], 0.09, 'sawtooth', 0.05),
    yourTurn: () => beep([660, 990], 0.09),
    theirTurn: () => beep([440, 330], 0.08, 'sine', 0.05),
  };
}

// Your turn in a background tab: the title and the icon change (the sound plays elsewhere).
const baseTitle = document.title, icon = document.getElementById('favicon'), baseIcon = icon && icon.href;
export function turnNotice(waiting) {
  document.title = waiting ? `● Your turn · ${baseTitle}` : baseTitle;
  if (icon) icon.href = waiting ? baseIcon.replace('favicon.svg', 'favicon-turn.svg') : baseIcon;
  document.documentElement.dataset.yourTurn = waiting ? '1' : '0';
}
