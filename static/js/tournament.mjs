// The tournament page follows its tournament over /ws/tournaments/<id>/ (lib/socket.mjs):
// each change bumps the tournament's version; a newer version makes the page fetch only its
// tournament part (?fragment=1&v=held: nothing at all, 204, while the version is unchanged)
// and swap it in (the bracket, the standings, the tables, the log), without a reload.
import { openSocket } from './lib/socket.mjs';

const root = document.getElementById('tournament');
let held = Number(root.dataset.version);
let busy = false, again = false;

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
        root.innerHTML = fresh.innerHTML;
        root.dataset.version = fresh.dataset.version;
        held = Number(fresh.dataset.version);
      }
    }
  } finally {
    busy = false;
    if (again) { again = false; refresh(); }
  }
}

openSocket({
  path: `/ws/tournaments/${root.dataset.tournament}/`,
  version: () => held,
  pingEvery: 15000,
  onFrame(msg) {
    if (msg.t === 'tournament' && msg.v > held) refresh();
  },
});
