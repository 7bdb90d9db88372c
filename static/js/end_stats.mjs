// At match end (the end dialog opens, or the page of a finished match loads): the match's
// analysis statistics, with the worker's live progress until they are ready.
import { esc } from './lib/dom.mjs';
import { gettext as _, interpolate } from './lib/i18n.mjs';

const box = document.getElementById('aids');
const dialog = document.getElementById('end-dialog');
let started = false;

function place() {
  let el = document.getElementById('end-stats');
  if (!el) {
    el = document.createElement('div');
    el.id = 'end-stats';
    el.className = 'end-stats';
    el.setAttribute('aria-live', 'polite');
    const body = document.getElementById('end-score');
    if (dialog && !dialog.hidden && body) body.after(el); else box.appendChild(el);
  }
  return el;
}

async function poll() {
  const r = await fetch(`/matches/${box.dataset.match}/analysis.json`, { headers: { Accept: 'application/json' } });
  const data = await r.json();
  const el = place();
  if (data.error) { if (data.error.code === 'match_not_over') setTimeout(poll, 1000); else el.textContent = ''; return; }
  if (data.status === 'queued' || data.status === 'running') {
    el.textContent = interpolate(_('Analysing the match… %(percent)s%'), { percent: Math.round(((data.job || {}).progress || 0) * 100) }, true);
    setTimeout(poll, 1000);
    return;
  }
  if (data.status === 'failed') { el.textContent = interpolate(_('The analysis failed: %(error)s'), { error: (data.job || {}).error || '' }, true); return; }
  const s = data.analysis.stats, p = data.players;
  const row = (c) => esc(interpolate(_('%(name)s: PR %(pr)s, error rate %(rate)s, checker %(checker)s, cube %(cube)s, luck %(luck)s'), {
    name: p[c].name, pr: s[c].overall.pr ?? '—', rate: s[c].overall.errorRate ?? '—', checker: s[c].checker.errorRate ?? '—',
    cube: s[c].cube.errorRate ?? '—', luck: `${s[c].luck.total >= 0 ? '+' : ''}${s[c].luck.total}` }, true));
  el.innerHTML = `<p><b>${esc(interpolate(_('Analysis (%(depth)s-ply)'), { depth: data.depth }, true))}</b></p><p>${row('white')}</p><p>${row('black')}</p>` +
    `<p><a href="/analysis/${data.id}/">${esc(_('See every decision'))}</a></p>`;
}

function start() {
  if (started || !box || !box.dataset.match) return;
  started = true;
  poll();
}
if (box && box.dataset.matchStatus === 'finished') start();
if (dialog) {
  const link = document.getElementById('end-analysis');
  const seen = () => {
    const over = !dialog.hidden && dialog.dataset.matchOver === '1';
    if (link) link.hidden = !over;
    if (over) start();
  };
  seen();
  new MutationObserver(seen).observe(dialog, { attributes: true, attributeFilter: ['hidden', 'data-match-over'] });
}
