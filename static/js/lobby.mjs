// The lobby: open matches and games in progress, live over /ws/lobby/ (docs/PROTOCOL.md).
import { csrfToken, esc, setHTML } from './lib/dom.mjs';
import { gettext as _, interpolate, ngettext, pgettext } from './lib/i18n.mjs';
import { openSocket, order } from './lib/socket.mjs';
import { timeControlText } from './texts.mjs';

const open = new Map(), live = new Map();
const loggedIn = document.getElementById('open-matches').dataset.loggedIn === '1';
const me = document.querySelector('.whoami')?.textContent.trim();
const myId = Number(((document.querySelector('a.whoami') || {}).pathname || '').split('/')[2]) || null;
const statusDot = document.getElementById('lobby-status');

function describe(m) {
  const r = m.rules || {}, bits = [];
  bits.push(r.cube ? (r.cubeLimit ? interpolate(_('cube ≤%(limit)s'), { limit: r.cubeLimit }, true) : _('cube')) : _('no cube'));
  if (m.length > 1 && r.cube && r.crawford) bits.push(_('Crawford'));
  if (r.jacoby) bits.push(_('Jacoby'));
  if (r.beaver) bits.push(_('beavers'));
  if (!m.rated) bits.push(_('unrated'));
  if (m.timeControl) {  // worded here from its numbers: a lobby_update's label is in the language of whoever caused it
    const label = timeControlText(m.timeControl);
    bits.push(m.timeControl.kind === 'correspondence' ? interpolate(_('correspondence: %(label)s'), { label }, true) : label);
  }
  return bits.join(', ');
}
const lengthText = m => (m.length ? interpolate(ngettext('%(length)s-point match', '%(length)s-point match', m.length), { length: m.length }, true) : _('money'));
const who = p => (p ? `${esc(p.name)} <span class="rating">${Math.round(p.rating)}</span>` : '—');

function render() {
  const openBody = document.querySelector('#open-matches tbody');
  const rows = [...open.values()].sort((a, b) => b.id - a.id).map(m => {
    const mine = me && m.white && m.white.name === me;
    const action = mine ? `<a class="button small" href="/matches/${m.id}/">${esc(_('Your table'))}</a>`
      : loggedIn ? `<form method="post" action="/matches/${m.id}/join/" class="inline"><input type="hidden" name="csrfmiddlewaretoken" value="${esc(csrfToken())}"><button class="button small" type="submit" aria-label="${esc(interpolate(_('Join match %(id)s against %(name)s'), { id: m.id, name: m.white && m.white.name }, true))}">${esc(_('Join'))}</button></form>`
      : `<a href="/accounts/login/?next=/">${esc(_('Log in to join'))}</a>`;
    return `<tr data-match="${m.id}"><td>${who(m.white)}</td><td>${lengthText(m)}</td><td>${esc(describe(m))}</td><td>${action}</td></tr>`;
  });
  setHTML(openBody, rows.join('') || `<tr class="empty"><td colspan="4">${esc(_('No open matches yet.'))}</td></tr>`);  // a Join being pressed stays
  const liveBody = document.querySelector('#live-matches tbody');
  const liveRows = [...live.values()].sort((a, b) => b.id - a.id).map(m => {
    const mine = myId && [m.white, m.black].some(p => p && p.id === myId);
    const action = mine ? `<a class="button small" href="/matches/${m.id}/">${esc(_('Resume'))}</a>`
      : `<a class="button small ghost" href="/matches/${m.id}/" aria-label="${esc(interpolate(_('Watch %(white)s against %(black)s'), { white: m.white && m.white.name, black: m.black && m.black.name }, true))}">${esc(_('Watch'))}</a>`;
    return `<tr data-match="${m.id}"${mine ? ' class="mine"' : ''}><td>${who(m.white)}</td><td>${who(m.black)}</td>` +
      `<td>${m.score[0]}–${m.score[1]}${m.length ? ' / ' + m.length : ''}${m.crawfordGame ? ` <abbr title="${esc(_('Crawford game'))}">${esc(pgettext('the Crawford game, in one letter', 'C'))}</abbr>` : ''}</td>` +
      `<td>${action}</td></tr>`;
  });
  setHTML(liveBody, liveRows.join('') || `<tr class="empty"><td colspan="4">${esc(_('Nobody is playing right now.'))}</td></tr>`);
}

// Lobby messages are numbered (docs/PROTOCOL.md): a gap means one was lost, so ask for the
// whole list; the idle ping carries our number so the server can tell us we are behind.
let version = null;
function onMessage(msg) {
  if (msg.t === 'lobby') {
    open.clear(); live.clear();
    for (const m of msg.d.open) open.set(m.id, m);
    for (const m of msg.d.live) live.set(m.id, m);
    version = msg.v;
  } else if (msg.t === 'lobby_update' || msg.t === 'lobby_remove') {
    const where = order(version, msg.v);
    if (where === 'seen') return;
    if (where === 'gap') { socket.resync(null, version); return; }
    version = msg.v;
    open.delete(msg.d.id); live.delete(msg.d.id);
    if (msg.t === 'lobby_update') (msg.d.status === 'open' ? open : live).set(msg.d.id, msg.d);
  } else return;
  render();
}

const socket = openSocket({
  path: '/ws/lobby/',
  ping: () => ({ t: 'ping', d: {}, v: version }),
  behind: d => version !== null && d.v > version,   // the server's ping shows us behind: our ping catches up
  onFrame: onMessage,
  onState(st) {
    if (st === 'connecting') return;   // the page says so already
    const on = st === 'open';
    statusDot.className = `live-dot ${on ? 'on' : 'off'}`;
    statusDot.title = on ? _('live') : _('reconnecting…');
  },
});

// Money-only options are shown only for money sessions.
const form = document.getElementById('new-match');
if (form) {
  const sync = () => {
    const money = form.kind.value === 'money';
    form.classList.toggle('money', money);
    // A 1-point match has no cube (RULES.md): nothing to double for.
    const one = !money && Number(form.length.value) === 1;
    if (one && !form.cube.disabled) { form.cube.checked = false; form.cube.disabled = true; }
    else if (!one && form.cube.disabled) { form.cube.disabled = false; form.cube.checked = true; }
  };
  form.addEventListener('input', sync);
  form.addEventListener('change', sync); sync();
}
