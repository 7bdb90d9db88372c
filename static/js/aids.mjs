// Hints and the tutor on the game page (unrated matches with aids on; the server refuses
// them anywhere else). The hint's plays are drawn on the board as arrows; the tutor checks a
// play or cube action before game.mjs sends it (window.aidsGate) and lets the player take it back.
import { checkerXY } from './board.mjs';
import { csrfToken, esc } from './lib/dom.mjs';
import { gettext as _, interpolate } from './lib/i18n.mjs';

const box = document.getElementById('aids');
const hintBox = document.getElementById('hint-box');
const game = box && box.dataset.game;
const you = () => (box.dataset.role === 'black' ? 'black' : 'white');
const flipped = () => { const f = document.getElementById('opt-flip'); return !!(f && f.checked); };

let layer = null;
function arrows(moves) {
  const wrap = document.querySelector('.board-wrap');
  if (!wrap) return;
  if (!layer) {
    layer = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    layer.setAttribute('viewBox', '0 0 888 640');
    layer.setAttribute('id', 'hint-layer');
    layer.setAttribute('aria-hidden', 'true');
    layer.classList.add('hint-layer');
    wrap.appendChild(layer);
  }
  const at = p => (p === 'bar' || p === 'off' ? null : checkerXY(p, 0, you(), flipped()));
  layer.innerHTML = '<defs><marker id="hint-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto">' +
    '<path d="M0,0 L10,5 L0,10 z" fill="#2a8f3f"/></marker></defs>' +
    (moves || []).map(m => {
      const a = at(m.from), b = at(m.to);
      if (!a || !b) return '';
      return `<line class="hint-arrow" x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}" stroke="#2a8f3f" stroke-width="6" marker-end="url(#hint-head)"/>`;
    }).join('');
}
const clearArrows = () => { if (layer) layer.innerHTML = ''; };

async function call(url, body) {
  const r = await fetch(url, body === undefined ? { headers: { Accept: 'application/json' } } : {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrfToken() }, body: JSON.stringify(body) });
  return r.json();
}

async function hint() {
  hintBox.textContent = _('Thinking…');
  const h = await call(`/games/${game}/hint.json`);
  if (h.error) { hintBox.textContent = h.error.message; clearArrows(); return; }
  if (h.kind === 'play') {
    hintBox.innerHTML = '<ol class="alternatives">' + h.plays.map((p, k) =>
      `<li><button type="button" class="alt${k === 0 ? ' shown' : ''}" data-k="${k}"><span class="alt-play">${esc(p.notation)}</span>` +
      `<span class="alt-eq">${p.equity >= 0 ? '+' : ''}${p.equity.toFixed(3)}</span></button></li>`).join('') + '</ol>';
    arrows(h.plays[0] && h.plays[0].moves);
    hintBox.onclick = e => {
      const b = e.target.closest('button[data-k]');
      if (!b) return;
      hintBox.querySelectorAll('.alt').forEach(x => x.classList.toggle('shown', x === b));
      arrows(h.plays[Number(b.dataset.k)].moves);
    };
  } else {
    const words = { double: _('Double'), roll: _('No double: roll'), take: _('Take'), drop: _('Pass') };
    const figures = interpolate(_('no double %(nd)s, double/take %(dt)s, double/pass %(dp)s'),
      { nd: h.nd.toFixed(3), dt: h.dt.toFixed(3), dp: h.dp.toFixed(3) }, true);
    hintBox.innerHTML = `<p id="hint-cube"><b>${esc(words[h.action] || h.action)}</b> · ${esc(figures)}</p>`;
    clearArrows();
  }
}

// The tutor's marks (the analysis' words: doubtful, bad, very bad).
function markWord(mark) {
  const words = { doubtful: _('doubtful'), bad: _('bad'), very_bad: _('very bad') };
  return words[mark] || (mark || '').replace('_', ' ');
}

function ask(check) {
  const best = check.best && (check.best.notation || check.best);
  const mine = check.played ? check.played.notation : '';
  const text = interpolate(mine ? _('Tutor: %(play)s is %(mark)s (−%(loss)s). Best: %(best)s.') : _('Tutor: this is %(mark)s (−%(loss)s). Best: %(best)s.'),
    { play: mine, mark: markWord(check.mark), loss: check.loss.toFixed(3), best }, true);
  hintBox.innerHTML = `<div class="tutor-warning" role="alertdialog" aria-labelledby="tutor-text"><p id="tutor-text">${esc(text)}</p>` +
    `<div class="buttons"><button type="button" class="button small" id="tutor-back">${esc(_('Take it back'))}</button>` +
    `<button type="button" class="button small ghost" id="tutor-go">${esc(_('Play it anyway'))}</button></div></div>`;
  document.getElementById('tutor-back').focus();
  return new Promise(resolve => {
    document.getElementById('tutor-back').onclick = () => { hintBox.textContent = _('Taken back.'); resolve(false); };
    document.getElementById('tutor-go').onclick = () => { hintBox.textContent = ''; resolve(true); };
  });
}

if (box && box.dataset.aids === 'on' && box.dataset.role !== 'spectator' && hintBox) {
  document.getElementById('hint-btn').addEventListener('click', hint);
  const tutorOn = document.getElementById('tutor-on'), threshold = document.getElementById('tutor-threshold');
  // game.mjs asks before sending a play or a cube action: resolve true to send it.
  window.aidsGate = async (t, d) => {
    clearArrows();
    if (!tutorOn.checked || !['move', 'double', 'roll', 'take', 'drop', 'beaver'].includes(t)) return true;
    const body = t === 'move' ? { moves: d.moves } : { action: t };
    body.threshold = threshold.value;
    let check;
    try { check = await call(`/games/${game}/tutor.json`, body); } catch (e) { return true; }
    if (check.error || !check.warn) return true;
    return ask(check);
  };
}
