// The game page's options and your-turn notice (used by game.mjs; the sounds: sound.mjs).
import { csrfToken } from './lib/dom.mjs';
import { gettext as _, interpolate } from './lib/i18n.mjs';

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
    confirm: saved.confirm !== false, numbers: saved.numbers || 'mine', volume: loadVolume() };
}

/** The sound volume (0..1): this device's, kept in this browser. */
function loadVolume() {
  const v = Number(localStorage.getItem('bg-volume') ?? 0.7);
  return Number.isFinite(v) ? Math.max(0, Math.min(1, v)) : 0.7;
}
export const saveVolume = v => localStorage.setItem('bg-volume', String(v));

/** Keep option ``name`` (changed in the page): on the profile (``POST /settings.json``), or here. */
export function saveOption(boot, opts, name, onFail) {
  if (!boot.loggedIn) { localStorage.setItem('bg-prefs', JSON.stringify(opts)); return; }
  const change = name === 'flip' ? { home: opts.flip ? 'left' : 'right' } : { [name]: opts[name] };
  fetch('/settings.json', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrfToken() },
    body: JSON.stringify(change) }).then(r => { if (!r.ok) onFail(); }, onFail);
}

// Your turn in a background tab: the title and the icon change (the sound plays elsewhere).
const baseTitle = document.title, icon = document.getElementById('favicon'), baseIcon = icon && icon.href;
export function turnNotice(waiting) {
  document.title = waiting ? interpolate(_('● Your turn · %(title)s'), { title: baseTitle }, true) : baseTitle;
  if (icon) icon.href = waiting ? baseIcon.replace('favicon.svg', 'favicon-turn.svg') : baseIcon;
  document.documentElement.dataset.yourTurn = waiting ? '1' : '0';
}

/** The header's "Your turn" and its count (base.html), shown only when a match waits for the
 *  player (``count``); else it reads "Your matches". */
export function headerTurns(count) {
  const el = document.getElementById('your-turn-count');
  if (!el) return;
  el.textContent = String(count);
  el.hidden = !count;
  document.getElementById('your-turn-label').hidden = !count;
  document.getElementById('your-matches-label').hidden = !!count;
}
