// Practice from your own errors: one exercise at a time (the board before the decision, the
// candidate plays or the cube actions to choose from), the answer checked on the server, then
// the right answer, the equity given up and the best plays; the score at the end.
import { renderBoard } from './board.mjs';
import { applySteps } from './state.mjs';
import { $, esc, csrfToken } from './lib/dom.mjs';
import { gettext as _, interpolate, formatNumber } from './lib/i18n.mjs';

const root = $('practice');
const data = JSON.parse($('practice-data').textContent);
let i = Math.max(0, data.exercises.findIndex(ex => !ex.answered));
if (data.exercises.every(ex => ex.answered)) i = 0;
let shown = null;   // the revealed play shown on the board, or null: the position before

const num = (x, digits = 3) => formatNumber(Number(x), { minimumFractionDigits: digits, maximumFractionDigits: digits,
  signDisplay: 'exceptZero' });
const amount = x => formatNumber(Math.abs(Number(x)), { minimumFractionDigits: 3, maximumFractionDigits: 3 });
const colourWord = c => (c === 'white' ? _('White') : _('Black'));

function choiceWord(ex, key) {
  if (ex.kind === 'play') { const c = ex.choices.find(c => c.key === key); return c ? c.notation : key; }
  return { no_double: _('No double'), double: _('Double'), take: _('Take'), pass: _('Pass') }[key] || key;
}

// the decider's equity and loss of each choice, once answered
function revealed(ex) {
  if (ex.kind === 'play') {
    return [...ex.choices].sort((a, b) => a.loss - b.loss || b.equity - a.equity)
      .map(c => ({ key: c.key, text: c.notation, equity: c.equity, loss: c.loss, moves: c.moves }));
  }
  const { nd, dt, dp } = ex.cube;
  const best = Math.max(nd, Math.min(dt, dp));
  const rows = ex.kind === 'cube'
    ? [{ key: 'no_double', equity: nd, loss: best - nd }, { key: 'double', equity: Math.min(dt, dp), loss: best - Math.min(dt, dp) }]
    : [{ key: 'take', equity: -dt, loss: Math.max(0, dt - dp) }, { key: 'pass', equity: -dp, loss: Math.max(0, dp - dt) }];
  return rows.map(r => ({ ...r, text: choiceWord(ex, r.key) })).sort((a, b) => a.loss - b.loss);
}

function question(ex) {
  const who = colourWord(ex.player);
  if (ex.kind === 'play') return interpolate(_('%(who)s to play %(dice)s: choose the play.'), { who, dice: ex.dice.join('-') }, true);
  if (ex.kind === 'cube') return interpolate(_('%(who)s on roll: double or not?'), { who }, true);
  return interpolate(_('%(who)s is doubled: take or pass?'), { who }, true);
}

function drawBoard(ex) {
  let pos = ex.position, lastTurn = null;
  if (shown) { pos = applySteps(ex.position, ex.player, shown.moves).pos; lastTurn = { color: ex.player, moves: shown.moves }; }
  const cubeOn = ex.matchLength !== 1 && !ex.crawford;
  $('board').innerHTML = renderBoard({ pos, you: ex.player, dice: ex.dice, diceColor: ex.player,
    cube: { value: ex.cubeValue, owner: ex.cubeOwner, enabled: cubeOn }, lastTurn });
}

function showScore() {
  $('score-line').textContent = interpolate(_('Right so far: %(correct)s of %(answered)s answered (%(size)s exercises).'),
    { correct: data.correct, answered: data.answered, size: data.size }, true);
  $('summary').hidden = !data.finished;
  if (data.finished) {
    $('final-score').textContent = interpolate(_('Best answer in %(correct)s of %(size)s exercises; equity given up: %(lost)s EMG.'),
      { correct: data.correct, size: data.size, lost: amount(data.lost) }, true);
  }
}

function show() {
  const ex = data.exercises[i];
  root.dataset.exercise = String(ex.number);
  root.dataset.kind = ex.kind;
  root.dataset.status = ex.answered ? 'answered' : 'asking';
  $('progress-line').textContent = interpolate(_('Exercise %(n)s of %(size)s'), { n: ex.number, size: data.size }, true);
  const score = ex.matchLength ? interpolate(_('White %(white)s, Black %(black)s in a %(length)s-point match'),
    { white: ex.score[0], black: ex.score[1], length: ex.matchLength }, true) : _('Money session');
  $('what').textContent = `${question(ex)} · ${score}`;
  drawBoard(ex);
  $('message').hidden = true;
  const list = $('choices');
  if (!ex.answered) {
    $('choices-title').textContent = _('Your choice');
    list.innerHTML = ex.choices.map(c => `<li><button type="button" class="alt choice" data-key="${esc(c.key)}">` +
      `<span class="alt-play">${esc(choiceWord(ex, c.key))}</span></button></li>`).join('');
    $('verdict').hidden = true;
  } else {
    $('choices-title').textContent = _('The choices, best first');
    list.innerHTML = revealed(ex).map(r => {
      const tags = [r.key === ex.best ? _('best') : '', r.key === ex.choice ? _('your answer') : '',
        r.key === ex.played ? _('played in the match') : ''].filter(Boolean).join(', ');
      const cls = `alt${r.key === ex.choice ? ' played' : ''}${shown && r.key === shown.key ? ' shown' : ''}`;
      return `<li><button type="button" class="${cls}" data-show="${esc(r.key)}"${r.moves ? '' : ' disabled'}>` +
        `<span class="alt-play">${esc(r.text)}${tags ? ` <small>(${esc(tags)})</small>` : ''}</span>` +
        `<span class="alt-eq">${num(r.equity)}</span><span class="alt-loss">${r.loss > 0.0005 ? num(-r.loss) : ''}</span></button></li>`;
    }).join('');
    const v = $('verdict');
    v.hidden = false;
    v.className = `practice-verdict ${ex.correct ? 'right' : 'wrong'}`;
    const best = choiceWord(ex, ex.best);
    let text = ex.correct ? interpolate(_('Right: %(best)s is the best choice.'), { best }, true)
      : interpolate(_('Not the best: %(best)s was. Your answer gave up %(loss)s EMG.'), { best, loss: amount(ex.loss) }, true);
    if (ex.played) {
      text += ' ' + interpolate(_('In the match: %(played)s (gave up %(loss)s EMG).'),
        { played: choiceWord(ex, ex.played), loss: amount(ex.originalLoss) }, true);
    }
    v.textContent = text;
  }
  $('next').hidden = !(ex.answered && i < data.exercises.length - 1);
  showScore();
}

async function answer(key) {
  const ex = data.exercises[i];
  list(true);
  try {
    const res = await fetch(root.dataset.answerUrl, { method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrfToken() },
      body: JSON.stringify({ exercise: ex.id, choice: key }) });
    const body = await res.json();
    if (!res.ok) throw new Error((body.error && body.error.message) || _('The answer was not accepted.'));
    data.exercises[i] = body.exercise;
    Object.assign(data, body.session);
    shown = null;
    show();
    ($('next').hidden ? $('choices') : $('next')).focus?.();
  } catch (err) {
    $('message').textContent = err.message;
    $('message').hidden = false;
    list(false);
  }
}

function list(disabled) { for (const b of $('choices').querySelectorAll('button.choice')) b.disabled = disabled; }

$('choices').addEventListener('click', e => {
  const pick = e.target.closest('button[data-key]');
  if (pick) { answer(pick.dataset.key); return; }
  const view = e.target.closest('button[data-show]');
  const ex = data.exercises[i];
  if (view && ex.kind === 'play') {
    const c = ex.choices.find(c => c.key === view.dataset.show);
    shown = shown && shown.key === c.key ? null : c;
    show();
  }
});
$('next').addEventListener('click', () => { i += 1; shown = null; show(); $('choices').querySelector('button')?.focus(); });
show();
