// The waiting room: poll the match's tiny status endpoint and open the game once it starts.
import { gettext as _ } from './lib/i18n.mjs';

const box = document.getElementById('waiting');
const copy = document.getElementById('copy-invite');
if (copy) copy.addEventListener('click', async () => {
  const input = document.getElementById('invite-link');
  input.select();
  try { await navigator.clipboard.writeText(input.value); copy.textContent = _('Copied'); } catch { document.execCommand('copy'); copy.textContent = _('Copied'); }
});
let wait = 500;
async function poll() {
  try {
    const r = await fetch(box.dataset.statusUrl, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    if (r.ok) {
      const s = await r.json();
      if (s.status !== 'open' && s.game) { location.replace(`/games/${s.game}/`); return; }
      if (s.status === 'aborted') { document.getElementById('wait-note').textContent = _('This match was cancelled.'); return; }
    }
  } catch { /* offline: try again */ }
  setTimeout(poll, wait); wait = Math.min(wait * 1.5, 3000);
}
poll();
