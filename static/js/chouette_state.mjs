// The chouette page's pure part: from the server's state (docs/PROTOCOL.md, "Chouettes")
// to what the page shows and which buttons it offers. No DOM here (tests/js/chouette.test.mjs).
import { gettext as _, interpolate } from './lib/i18n.mjs';
import { candidates, canMoveNow, initialState, selectableSources } from './state.mjs';

/** A player's display name from the state's seats. */
export function nameOf(st, id) {
  const seat = (st.seats || []).find(s => s.player === id);
  return seat ? seat.name : String(id);
}

/** ``box``, ``captain``, ``crew`` (in the game now), ``seated`` or ``spectator``. */
export function roleOf(st, you) {
  const g = st.game;
  if (g && you != null) {
    if (g.box === you) return 'box';
    if (g.captain === you) return 'captain';
    if (g.team.includes(you)) return 'crew';
  }
  if (you != null && (st.seats || []).some(s => s.player === you && s.active)) return 'seated';
  return 'spectator';
}

/** A role (roleOf, lineRows) in the page's language. */
export function roleWord(role) {
  const words = { box: _('box'), captain: _('captain'), crew: _('crew'), seated: _('seated'), spectator: _('spectator'),
    waiting: _('waiting') };
  return words[role] || role;
}

/** A chat room's name: table, team, spectators. */
export function roomWord(room) {
  const words = { table: _('table'), team: _('team'), spectators: _('spectators') };
  return words[room] || room;
}

/** What the game waits for from a player (waitingFor's reason). */
export function waitReason(reason) {
  const words = { double_decision: _('double decision'), double_answer: _('double answer'), raccoon_decision: _('raccoon decision'),
    buy_decision: _('buy decision'), last_member: _('last member'), move: _('move'), roll: _('roll') };
  return words[reason] || String(reason).replace('_', ' ');
}

/** A cube's note in the cube row: whose it is (or how it ended), and the decision it waits for. */
export function cubeNote(c) {
  const ends = { bearoff: _('bearoff'), drop: _('drop'), settlement: _('settlement'), forfeit: _('forfeit'), dropped: _('dropped') };
  const owners = { box: _("box's"), team: _("team's") };
  const stages = { offered: _('offered'), beavered: _('beavered'), dropped: _('dropped') };
  const where = c.out ? (ends[c.end] || c.end) : c.owner ? (owners[c.owner] || c.owner) : _('centred');
  return c.stage && !c.out ? interpolate(_('%(where)s, %(stage)s'), { where, stage: stages[c.stage] || c.stage }, true) : where;
}

/** The board's viewpoint: the team plays Black, the box White (spectators see White's side). */
export function boardSide(st, you) {
  const role = roleOf(st, you);
  return role === 'captain' || role === 'crew' ? 'black' : 'white';
}

/** The line: box first, then the team in order, with scores, roles and who waits for the next game. */
export function lineRows(st, you) {
  const s = st.session;
  if (!s) return (st.seats || []).filter(x => x.active).map(x => ({ id: x.player, name: x.name, score: 0, role: 'seated', you: x.player === you, away: x.away }));
  const scores = Object.fromEntries(s.scores);
  const running = st.game ? Object.fromEntries(st.game.runningScores) : {};
  const g = st.game;
  const away = Object.fromEntries((st.seats || []).map(x => [x.player, x.away]));
  const rows = s.line.map((id, i) => ({
    id, name: nameOf(st, id), score: scores[id] || 0, game: running[id] || 0, you: id === you, away: !!away[id],
    role: i === 0 ? 'box' : (g ? (g.captain === id ? 'captain' : (g.team.includes(id) ? 'crew' : 'waiting')) : (i === 1 ? 'captain' : 'crew')),
    out: g ? !(g.box === id || g.cubes.some(c => (c.holder === id || c.opponent === id) && c.end == null && c.stage !== 'dropped')) : false,
  }));
  for (const id of s.waiting) rows.push({ id, name: nameOf(st, id), score: scores[id] || 0, game: 0, role: 'waiting', you: id === you, away: !!away[id] });
  return rows;
}

/** Every member's cube: name, value, owner, in play or how it ended, and whether it waits for an answer. */
export function cubeRows(st) {
  const g = st.game;
  if (!g) return [];
  const pendingCubes = new Set(g.pending.flatMap(p => p.cubes));
  return g.cubes.map(c => ({
    member: c.member, name: nameOf(st, c.member), holder: nameOf(st, c.holder), value: c.value, owner: c.owner,
    out: c.end != null || c.stage === 'dropped', end: c.end || (c.stage === 'dropped' ? 'dropped' : null),
    stage: c.stage, pending: pendingCubes.has(c.member), bought: c.bought,
  }));
}

// The cube-decision buttons' labels; for one member's cube, ``[yours, theirs]``.
const LABELS = () => ({ no_double: _('No double'), drop: _('Drop'), buy_all: _('Buy all') });
const CUBE_LABELS = () => ({
  take: [_('Take your cube'), _("Take %(name)s's cube")], drop: [_('Drop your cube'), _("Drop %(name)s's cube")],
  beaver: [_('Beaver your cube'), _("Beaver %(name)s's cube")], raccoon: [_('Raccoon your cube'), _("Raccoon %(name)s's cube")],
  no_raccoon: [_('No raccoon your cube'), _("No raccoon %(name)s's cube")],
  buy: [_('Buy your cube'), _("Buy %(name)s's cube")], no_buy: [_("Don't buy your cube"), _("Don't buy %(name)s's cube")],
});

/** The cube-decision buttons for ``you``: ``[{t, d, label}]`` (the checker play has its own list). */
export function decisionButtons(st, you) {
  const g = st.game;
  if (!g || you == null) return [];
  const allowed = new Set(g.allowed[String(you)] || []);
  const out = [];
  for (const p of g.pending) {
    if (p.player !== you) continue;
    if (p.reason === 'double_decision') {
      out.push({ t: 'double', d: {}, label: p.cubes.length > 1 ? _('Double all') : _('Double') });
      if (p.cubes.length > 1) for (const m of p.cubes) out.push({ t: 'double', d: { cubes: [m] }, label: interpolate(_('Double %(name)s'), { name: nameOf(st, m) }, true) });
      out.push({ t: 'no_double', d: {}, label: LABELS().no_double });
    } else if (p.reason === 'last_member') {
      out.push({ t: 'buy_all', d: {}, label: LABELS().buy_all }, { t: 'drop', d: {}, label: LABELS().drop });
    } else if (p.reason !== 'move' && p.reason !== 'roll') {
      const actions = { double_answer: ['take', 'drop', 'beaver'], raccoon_decision: ['raccoon', 'no_raccoon'],
        buy_decision: ['buy', 'no_buy'] }[p.reason] || [];
      for (const m of p.cubes) {
        for (const t of actions) {
          if (!allowed.has(t)) continue;
          const [yours, theirs] = CUBE_LABELS()[t];
          out.push({ t, d: { cube: m }, label: m === you ? yours : interpolate(theirs, { name: nameOf(st, m) }, true) });
        }
      }
    }
  }
  return out;
}

/** A play as text ("13/7 8/7"). */
export function playText(steps) {
  return steps.length ? steps.map(s => `${s.from}/${s.to}`).join(' ') : _('(no move)');
}

/**
 * A suggested play's chat line in the reader's language, in three parts: the words before the
 * play, the play ("13/7 8/7", to show left to right), the words after. The server keeps the
 * line's text as an English record; every reader words it from ``play``.
 */
export function suggestionParts(play) {
  const [before, after = ''] = _('suggests %(play)s').split('%(play)s');
  return [before, playText(play), after];
}

/** Whether ``you`` plays the dice now, and whether you may suggest a play to the team. */
export function canMove(st, you) {
  const g = st.game;
  return !!g && g.phase === 'move' && g.roller === you;
}

export function canSuggest(st, you) {
  const g = st.game;
  return !!g && g.phase === 'move' && g.onRoll === 'team' && g.roller !== you && g.consult.includes(you);
}

/**
 * The board in the game page's shape (state.mjs), so that the player on roll moves the
 * checkers as in a match (board_input.mjs), and a member who may consult moves them to
 * suggest a play. ``prev`` (the last board) keeps the checkers moved so far while the
 * dice and the legal plays stay the same (a settlement offer does not undo them).
 */
export function boardState(st, you, prev = null) {
  const g = st.game;
  if (!g) return initialState();
  const p = g.position, side = boardSide(st, you);
  const mine = canMove(st, you) || canSuggest(st, you);
  const s = {
    ...initialState(), game: g.id, version: st.version, phase: g.phase, you: side, actor: mine ? side : null,
    turn: g.onRoll === 'box' ? 'white' : 'black', turnNumber: g.turnNumber, dice: g.dice,
    board: p.board.slice(), whiteBar: p.whiteBar, blackBar: p.blackBar, whiteOff: p.whiteOff, blackOff: p.blackOff,
    legalMoves: mine ? g.legal : [],
  };
  if (prev && prev.game === s.game && prev.turnNumber === s.turnNumber && prev.you === s.you && canMoveNow(s)) {
    s.partial = prev.partial;
    if (s.partial.length && !candidates(s).length) s.partial = [];
    if (s.partial === prev.partial && selectableSources(s).includes(prev.selected)) s.selected = prev.selected;
  }
  return s;
}

/**
 * The cube drawn on the board (board.mjs's ``{value, owner, enabled}``, plus its ``member``):
 * the viewer's own cube while it is in play, else the captain's, else any in play. The box
 * plays White, the team Black; an offered cube shows the value it is turned to.
 */
export function boardCube(st, you) {
  const g = st && st.game;
  if (!g) return null;
  const live = c => c.end == null && c.stage !== 'dropped';
  const c = g.cubes.find(x => x.member === you && live(x)) || g.cubes.find(x => x.member === g.captain && live(x)) || g.cubes.find(live);
  if (!c) return null;
  return { member: c.member, enabled: true, value: c.stage === 'offered' ? c.value * 2 : c.value,
    owner: c.owner === 'box' ? 'white' : c.owner === 'team' ? 'black' : null };
}

/** The players the game waits for, by name, and what for. */
export function waitingFor(st) {
  const g = st.game;
  if (!g) return [];
  return g.pending.filter(p => p.player != null).map(p => ({ id: p.player, name: nameOf(st, p.player), reason: p.reason }));
}

/** The cubes ``you`` may settle (you are a party and the cube is in play). */
export function settleableCubes(st, you) {
  const g = st.game;
  if (!g || you == null) return [];
  return g.cubes.filter(c => c.end == null && c.stage !== 'dropped' && (c.holder === you || c.opponent === you))
    .map(c => ({ member: c.member, name: nameOf(st, c.member), value: c.value }));
}

/** Open offers made to ``you`` and by ``you``. */
export function offersFor(st, you) {
  const g = st.game;
  if (!g) return { toYou: [], byYou: [] };
  const cube = m => g.cubes.find(c => c.member === m);
  const other = o => { const c = cube(o.cube); return c.holder === o.proposer ? c.opponent : c.holder; };
  return {
    toYou: g.offers.filter(o => other(o) === you).map(o => ({ ...o, from: nameOf(st, o.proposer), name: nameOf(st, o.cube) })),
    byYou: g.offers.filter(o => o.proposer === you).map(o => ({ ...o, name: nameOf(st, o.cube) })),
  };
}

/** Seconds left before the pending cube decisions time out (null: no timer). */
export function secondsLeft(st, now = Date.now()) {
  if (!st.deadline) return null;
  return Math.max(0, Math.round((Date.parse(st.deadline) - now) / 1000));
}

/** Whether ``you`` may press "Start the chouette" now. The server names who may (``starters``:
 *  nobody once the table has started or while too few sit; the host if seated, else anyone
 *  seated; ``ChouetteRules.starters``), the rule its refusal applies: the page only reads it. */
export function canStart(st, you) {
  return you != null && (st.starters || []).includes(you);
}

/** The status line. */
export function statusText(st, you) {
  const g = st.game;
  if (!g) {
    if (st.status === 'finished') return _('This chouette is over.');
    if (st.status !== 'open') return '';
    if (st.session) return _('Waiting for players for the next game.');
    if (!(st.starters || []).length) return _('Waiting for the players to sit down.');
    if (canStart(st, you)) return _('Ready: start the chouette when everyone is here.');
    const hostStarts = st.starters.includes(st.creator);   // else any seated player may
    return hostStarts ? interpolate(_('Ready: waiting for %(name)s to start the chouette.'), { name: nameOf(st, st.creator) }, true)
      : _('Ready: waiting for a seated player to start the chouette.');
  }
  const side = g.onRoll === 'box' ? interpolate(_('%(name)s (box)'), { name: nameOf(st, g.box) }, true)
    : interpolate(_('the team (captain %(name)s)'), { name: nameOf(st, g.captain) }, true);
  const phase = g.phase === 'move' && g.dice ? interpolate(_('to play %(dice)s'), { dice: `${g.dice[0]}-${g.dice[1]}` }, true)
    : { cube_window: _('cube decisions'), answers: _('answering doubles'), buy: _('buying dropped cubes'),
      last_member: _('the last member decides'), move: _('to play'), roll: _('to roll'), over: _('game over') }[g.phase] || g.phase;
  return interpolate(_('Game %(number)s: %(side)s on roll, %(phase)s. You are %(role)s.'),
    { number: g.number, side, phase, role: roleWord(roleOf(st, you)) }, true);
}

/** Who the game waits for, as the turn's chime sees it (sound.mjs's turnChime): ``you`` when it
 *  waits for you (a roll, a play, a cube decision), ``'others'`` when for anyone else, null with
 *  no game. */
export function actorOf(st, you) {
  if (!st || !st.game) return null;
  return you != null && waitingFor(st).some(w => w.id === you) ? you : 'others';
}

/**
 * Whether a game's end (``held``: {number, until, closed}) is still held on the board at ``now``:
 * while no game follows it; once one does, until its delay has passed or its dialog is closed,
 * and never once the next game waits for ``you`` (issue 28: input is never blocked longer than
 * the animation of the player's own play).
 */
export function endHeld(held, st, you, now) {
  if (!held) return false;
  const g = st && st.game;
  if (!(g && g.number > held.number)) return true;
  return now < held.until && !held.closed && actorOf(st, you) !== you;
}

/**
 * A chouette game's result as the board marks it (board.mjs's plaque, ``{color, title, detail}``):
 * who won on the board, the box (White) or the team's captain (Black), and the box's points and
 * whether it holds the box. A game ended by drops and settlements has no winner on the board.
 */
export function endPlaque(r, st) {
  const name = id => nameOf(st, id);
  const row = (r.scores || []).find(([p]) => p === r.box), points = row ? row[1] : 0;
  const signed = `${points > 0 ? '+' : ''}${points}`;
  const detail = r.boxHolds ? interpolate(_('Box %(points)s · holds the box'), { points: signed }, true)
    : interpolate(_('Box %(points)s · %(name)s takes the box'), { points: signed, name: name(r.finalCaptain) }, true);
  if (r.boardWinner === 'box') return { color: 'white', title: interpolate(_('%(name)s (box) wins'), { name: name(r.box) }, true), detail };
  if (r.boardWinner === 'team') return { color: 'black', title: interpolate(_('%(name)s (captain) wins'), { name: name(r.finalCaptain) }, true), detail };
  return { color: null, title: _('Game over'), detail };
}
