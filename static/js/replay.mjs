// The replay viewer: steps through a finished game's events (GET /games/<id>/replay.json).
import { patchBoard, renderBoard } from './board.mjs';
import { esc } from './lib/dom.mjs';
import { gettext as _, interpolate, ltrText } from './lib/i18n.mjs';
import { planEvent, speedFactor } from './motion.mjs';
import { motionPlayer } from './motion_player.mjs';
import { loadOptions } from './prefs.mjs';
import { sounds } from './sound.mjs';
import { colorName, kindWord, resultPlaque } from './texts.mjs';

const root = document.getElementById('replay'), board = document.getElementById('board'), what = document.getElementById('what');
let steps = [], i = 0;

function label(step) {
  const d = step.d || {}, who = colorName(d.color);
  const say = (format, values = {}) => interpolate(format, { who, ...values }, true);
  switch (step.t) {
    case 'game_start': return _('Start');
    case 'opening_roll': return interpolate(_('Opening roll: White %(white)s, Black %(black)s'), { white: d.white, black: d.black }, true);
    case 'roll': return say(_('%(who)s rolls %(dice)s'), { dice: d.dice.join('-') });
    case 'move': return d.dice ? say(_('%(who)s %(dice)s: %(play)s'), { dice: d.dice.join(''), play: ltrText(d.notation) || _('cannot move') })
      : say(_('%(who)s %(play)s'), { play: ltrText(d.notation) || _('cannot move') });
    case 'double': return say(_('%(who)s doubles to %(value)s'), { value: d.cubeValue });
    case 'take': return say(_('%(who)s takes'));
    case 'drop': return say(_('%(who)s passes'));
    case 'game_end': return d.winner && d.reason === 'forfeit' && !d.points
      ? interpolate(_('%(who)s wins by forfeit (the match is awarded; no points)'), { who: colorName(d.winner) }, true)
      : d.winner ? interpolate(_('%(who)s wins %(points)s (%(kind)s)'), { who: colorName(d.winner), points: d.points, kind: kindWord(d.kind) }, true)
      : _('No result (aborted)');
    default: return say(EVENTS()[step.t] || `%(who)s ${step.t.replace('_', ' ')}`).trim();
  }
}

// The other events of a game, as the replay's list names them.
const EVENTS = () => ({
  beaver: _('%(who)s beaver'), raccoon: _('%(who)s raccoon'), resign_offer: _('%(who)s resign offer'),
  resign_reject: _('%(who)s resign reject'), resign_accept: _('%(who)s resign accept'), resign: _('%(who)s resign'),
  forfeit: _('%(who)s forfeit'), abort: _('%(who)s abort'),
});
// One step forward moves as in a game (motion.mjs) and sounds as in a game (sound.mjs: the sound
// option, this device's volume, nothing before the first click or key); any other jump shows the
// position at once, in silence.
const SOUND = sounds(loadOptions(JSON.parse(document.getElementById('boot').textContent)));
const reduced = window.matchMedia && matchMedia('(prefers-reduced-motion: reduce)').matches;
const motion = motionPlayer({
  board, idle: () => show(), sound: name => SOUND[name](),
  draw: ph => renderBoard({ pos: ph.pos, you: 'white', dice: ph.dice, diceColor: ph.diceColor, cube: ph.cube }),
  factor: () => speedFactor(root.dataset.animation, reduced),
});
const asState = s => ({ ...s.position, version: 0, game: 0, dice: s.dice, actor: s.position.turn, turn: s.position.turn,
  cube: s.cube || { enabled: false }, partial: [] });

function show() {
  const s = steps[i];
  if (!s) return;
  if (!motion.busy) patchBoard(board, renderBoard({ pos: s.position, you: 'white', dice: s.dice, diceColor: s.position.turn,
    cube: s.cube, lastTurn: s.t === 'move' ? { color: s.d.color, moves: s.d.moves } : null,
    result: s.t === 'game_end' ? resultPlaque(s.d, colorName) : null }));   // the result marked on the board
  what.textContent = interpolate(_('%(step)s/%(steps)s · %(event)s · pips White %(white)s, Black %(black)s'),
    { step: i + 1, steps: steps.length, event: label(s), white: s.pips.white, black: s.pips.black }, true);
  document.getElementById('prev').disabled = document.getElementById('first').disabled = i === 0;
  document.getElementById('next').disabled = document.getElementById('last').disabled = i === steps.length - 1;
  root.dataset.step = i;
  const list = document.getElementById('replay-moves');
  for (const li of list.children) li.classList.toggle('current', Number(li.dataset.step) === i);
  const cur = list.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

// The move list: each turn numbered (the opening roll and notes are not), a click shows it.
function renderList() {
  let n = 0;
  document.getElementById('replay-moves').innerHTML = steps.map((s, k) => {
    const turn = s.d && s.d.color && ['move', 'double', 'take', 'drop', 'resign', 'forfeit'].includes(s.t);
    return `<li data-step="${k}"${turn ? ` value="${++n}"` : ' class="info"'}><button type="button">${esc(label(s))}</button></li>`;
  }).join('');
}
document.getElementById('replay-moves').addEventListener('click', e => {
  const li = e.target.closest('li[data-step]');
  if (li) go(Number(li.dataset.step));
});
const go = n => {
  const from = i;
  i = Math.max(0, Math.min(steps.length - 1, n));
  if (i === from + 1) {
    const phases = planEvent(asState(steps[from]), { t: steps[i].t, v: 1, game: 0, d: steps[i].d }, { you: 'white' });
    if (!motion.animates) motion.heard(phases);   // not seen moving: its one sound, as in a game
    motion.play(phases);
  } else motion.finish();
  show();
};
document.getElementById('first').onclick = () => go(0);
document.getElementById('prev').onclick = () => go(i - 1);
document.getElementById('next').onclick = () => go(i + 1);
document.getElementById('last').onclick = () => go(steps.length - 1);
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowLeft') go(i - 1);
  else if (e.key === 'ArrowRight') go(i + 1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(steps.length - 1);
});
fetch(root.dataset.url).then(r => r.json()).then(data => {
  if (data.error) { what.textContent = data.error.message; return; }
  steps = data.steps; renderList(); go(0);
});
