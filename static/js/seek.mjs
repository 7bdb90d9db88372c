// Quick pairing: poll the seek (a poll keeps it alive and retries pairing), go to the match
// when paired, offer the computer after the wait the player chose (0: never).
import { gettext as _ } from './lib/i18n.mjs';
const root = document.getElementById('seek');
const fallback = Number(root.dataset.fallback) || 0, started = Date.now();
async function poll() {
  try {
    const s = await (await fetch(root.dataset.statusUrl, { headers: { Accept: 'application/json' } })).json();
    if (s.status === 'matched') { location.assign(`/matches/${s.matchId}/`); return; }
    if (s.status !== 'queued') { document.getElementById('seek-status').textContent = _('You are no longer in the pool: start again from the lobby.'); return; }
  } catch { /* a network hiccup: the next poll tries again */ }
  const waited = Math.round((Date.now() - started) / 1000);
  document.getElementById('seek-waited').textContent = `${waited} s`;
  if (fallback && waited >= fallback) document.getElementById('seek-computer').hidden = false;
  setTimeout(poll, 1500);
}
poll();
