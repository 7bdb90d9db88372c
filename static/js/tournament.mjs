// The tournament page follows its tournament over /ws/tournaments/<id>/ (lib/socket.mjs):
// each change bumps the tournament's version; a newer version makes the page fetch only its
// tournament part (?fragment=1&v=held: nothing at all, 204, while the version is unchanged)
// and swap it in (the bracket, the standings, the tables, the log), without a reload.
//
// The swap waits while the visitor is using the page: a button held down (replaced between
// press and release, it would lose the click) or a field being filled in (a director's
// reason), and a note (#t-held) says so; what was typed or chosen in a form's fields is kept
// across the swap.
import { openSocket } from './lib/socket.mjs';

const root = document.getElementById('tournament');
const heldNote = document.getElementById('t-held');
let held = Number(root.dataset.version);
let busy = false, again = false, waiting = null, pressing = false;

const FIELDS = 'form[id] input[type=text], form[id] select, form[id] textarea';
const inUse = () => pressing || (root.contains(document.activeElement) && document.activeElement.matches('input, select, textarea'));

function swap(fresh) {
  const kept = [...root.querySelectorAll(FIELDS)].map(el => [el.form.id, el.name, el.value]);
  const focused = root.contains(document.activeElement) ? document.activeElement.id : '';
  root.innerHTML = fresh.innerHTML;
  root.dataset.version = fresh.dataset.version;
  delete root.dataset.waiting;
  heldNote.hidden = true;
  for (const [form, name, value] of kept) {
    const twin = root.querySelector(`#${CSS.escape(form)} [name="${CSS.escape(name)}"]`);
    if (twin) twin.value = value;
  }
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();   // a keyboard's place kept
}

/** The swap put off while the page was in use, once it no longer is. */
function flush() {
  if (!waiting) return;
  if (inUse()) {
    root.dataset.waiting = waiting.dataset.version;   // (the tests wait for it)
    heldNote.hidden = pressing;   // a press is over in a moment: no note for it
    return;
  }
  const fresh = waiting;
  waiting = null;
  swap(fresh);
}

async function refresh() {
  if (busy) { again = true; return; }
  busy = true;
  try {
    const url = `${location.pathname}?fragment=1&v=${held}`;
    const response = await fetch(url, { headers: { 'X-Requested-With': 'fetch' } });
    if (response.status === 200) {
      const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
      const fresh = doc.getElementById('tournament');
      if (fresh && Number(fresh.dataset.version) >= held) {
        held = Number(fresh.dataset.version);
        waiting = fresh;
        flush();
      }
    }
  } finally {
    busy = false;
    if (again) { again = false; refresh(); }
  }
}

root.addEventListener('pointerdown', () => { pressing = true; });
// after the click the release makes (it comes once this event is handled)
addEventListener('pointerup', () => { pressing = false; setTimeout(flush, 0); }, true);
addEventListener('pointercancel', () => { pressing = false; setTimeout(flush, 0); }, true);
root.addEventListener('focusout', () => setTimeout(flush, 0));

openSocket({
  path: `/ws/tournaments/${root.dataset.tournament}/`,
  version: () => held,
  pingEvery: 15000,
  onFrame(msg) {
    if (msg.t === 'tournament' && msg.v > held) refresh();
  },
});
