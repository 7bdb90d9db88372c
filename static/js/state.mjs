// The game page's client state: a pure reducer, no DOM, no clock, no I/O.
//
// reduce(state, message) folds one server message (docs/PROTOCOL.md) into a new
// state; the selection helpers turn the server's legalMoves into what may be
// clicked now. The client never computes rules: it filters the server's list.

import { gettext as _, interpolate, ngettext } from './lib/i18n.mjs';
import { colorName, kindWord, reasonWord } from './texts.mjs';

export const OTHER = { white: 'black', black: 'white' };
const RESIGN_NAMES = { 1: 'single', 2: 'gammon', 3: 'backgammon' };
const resignWord = level => (RESIGN_NAMES[level] ? kindWord(RESIGN_NAMES[level]) : level);

/** The position every game starts from (the engine's ``Position.initial``), as the wire sends
 *  a position: drawn on a table whose first game has not started. */
export const START_POSITION = Object.freeze({
  board: Object.freeze([0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]),
  whiteBar: 0, blackBar: 0, whiteOff: 0, blackOff: 0,
});

export function initialState() {
  return {
    game: null, version: null, phase: null, turn: null, actor: null, you: null,
    board: new Array(25).fill(0), whiteBar: 0, blackBar: 0, whiteOff: 0, blackOff: 0,
    dice: null, cube: { value: 1, owner: null, enabled: false, canDouble: false, canBeaver: false, canRaccoon: false },
    resignOffer: null, legalMoves: [], lastTurn: null, result: null, match: null, clock: null,
    positionId: '', matchId: '', number: 1, status: 'playing',
    moveList: [],          // [{color, text}] in standard notation, this game
    partial: [],           // groups of steps made this turn, not yet sent: [[step, ...], ...]
    selected: null,        // the source point (1..24 or 'bar') of the checker picked up
    needResync: false,     // a gap was seen: ask for the missing events
    flagsStale: false,     // the cube flags / clock need a fresh snapshot
    gameEnd: null, rematch: null, nextGame: null, notices: [], previous: null,
    presence: null, chat: [],
  };
}

// -- board helpers -------------------------------------------------------------------------
export function sign(color) { return color === 'white' ? 1 : -1; }

export function pipCounts(s) {
  let white = s.whiteBar * 25, black = s.blackBar * 25;
  for (let p = 1; p <= 24; p++) {
    if (s.board[p] > 0) white += s.board[p] * p;
    else if (s.board[p] < 0) black += -s.board[p] * (25 - p);
  }
  return { white, black };
}

/** Apply one step of ``color`` to a position; returns {pos, hit}. Pure. */
export function applyStep(pos, color, step) {
  const board = pos.board.slice();
  const out = { ...pos, board };
  const me = sign(color), barKey = color + 'Bar', offKey = color + 'Off';
  const oppBar = OTHER[color] + 'Bar';
  if (step.from === 'bar') out[barKey] -= 1; else board[step.from] -= me;
  let hit = false;
  if (step.to === 'off') out[offKey] += 1;
  else {
    if (board[step.to] === -me) { board[step.to] = 0; out[oppBar] += 1; hit = true; }
    board[step.to] += me;
  }
  return { pos: out, hit };
}

export function applySteps(pos, color, steps) {
  let hits = 0;
  for (const step of steps) { const r = applyStep(pos, color, step); pos = r.pos; hits += r.hit; }
  return { pos, hits };
}

// -- notation ----------------------------------------------------------------------------------
/** A point in the mover's own numbering (RULES.md): Black's p is 25 - p. */
export function moverPoint(p, color) {
  if (p === 'bar' || p === 'off') return p;
  return color === 'black' ? 25 - p : p;
}

/** Plain notation of steps (used for the partial play; the server's `notation` names finished plays). */
export function formatSteps(steps, color) {
  return steps.map(s => `${moverPoint(s.from, color)}/${moverPoint(s.to, color)}`).join(' ');
}

// -- selection: the server's legal plays filtered by the steps made so far --------------------
const key = s => `${s.from}>${s.to}`;

export function flatPartial(state) { return state.partial.flat(); }

/** Remove the multiset ``made`` from ``play``; null when ``made`` is not contained. */
function remainder(play, made) {
  const rest = play.slice();
  for (const step of made) {
    const i = rest.findIndex(s => key(s) === key(step));
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

/** The legal plays whose steps can be ordered to start with the steps made so far, with what is left of each. */
export function candidates(state) {
  const made = flatPartial(state);
  const out = [];
  for (const play of state.legalMoves || []) {
    const rest = remainder(play, made);
    if (rest) out.push({ play, rest });
  }
  return out;
}

/** The board as it stands after the partial play. */
export function currentPosition(state) {
  const base = { board: state.board, whiteBar: state.whiteBar, blackBar: state.blackBar,
    whiteOff: state.whiteOff, blackOff: state.blackOff };
  return state.you ? applySteps(base, state.you, flatPartial(state)).pos : base;
}

function hasChecker(pos, color, from) {
  if (from === 'bar') return pos[color + 'Bar'] > 0;
  return pos.board[from] * sign(color) > 0;
}

/** Steps that can be made now (their checker is there; checkers on the bar go first). */
function nextSteps(state) {
  const color = state.you, pos = currentPosition(state);
  const onBar = pos[color + 'Bar'] > 0;
  const out = [];
  for (const { play, rest } of candidates(state)) {
    for (const step of rest) {
      if (onBar && step.from !== 'bar') continue;
      if (hasChecker(pos, color, step.from)) out.push({ step, play, rest });
    }
  }
  return out;
}

export function canMoveNow(state) {
  return !!state.you && state.phase === 'move' && state.actor === state.you && state.status !== 'finished';
}

/** Source points (1..24 or 'bar') that hold a checker some legal play moves next. */
export function selectableSources(state) {
  if (!canMoveNow(state)) return [];
  const seen = new Set();
  for (const { step } of nextSteps(state)) seen.add(step.from);
  return [...seen];
}

/**
 * Targets for the checker on ``from``: a map target -> steps to apply. A target is one
 * step away, or the end of a chain of steps of one legal play moving that same checker.
 */
export function targetsFrom(state, from) {
  const targets = new Map();
  if (!canMoveNow(state)) return targets;
  for (const { step, rest } of nextSteps(state)) {
    if (step.from !== from) continue;
    if (!targets.has(step.to) || targets.get(step.to).length > 1) targets.set(step.to, [step]);
    // follow the same checker through the rest of this play
    let chain = [step], left = remainder(rest, [step]), at = step.to;
    while (at !== 'off' && left.length) {
      const i = left.findIndex(s => s.from === at);
      if (i < 0) break;
      const next = left[i];
      chain = chain.concat([next]);
      left = left.slice(0, i).concat(left.slice(i + 1));
      at = next.to;
      if (!targets.has(at)) targets.set(at, chain);
    }
  }
  return targets;
}

/** The legal play the partial steps complete, in the server's own order (or null). */
export function completedPlay(state) {
  if (!canMoveNow(state)) return null;
  const made = flatPartial(state);
  for (const { play, rest } of candidates(state)) {
    if (rest.length === 0 && play.length === made.length) return play;
  }
  return null;
}

/** True when nothing is legal: the only play is the empty one (send [] to pass). */
export function mustPass(state) {
  return canMoveNow(state) && (state.legalMoves.length === 0 ||
    (state.legalMoves.length === 1 && state.legalMoves[0].length === 0));
}

/** Exactly one legal play (and it moves something): the forced play. */
export function forcedPlay(state) {
  if (!canMoveNow(state) || state.legalMoves.length !== 1 || !state.legalMoves[0].length) return null;
  return state.legalMoves[0];
}

// -- local actions (the player's own partial play) ------------------------------------------
export function select(state, from) {
  if (from === null || !selectableSources(state).includes(from)) return { ...state, selected: null };
  return { ...state, selected: from };
}

/** Move the selected checker (or ``from``) to ``to``; unchanged when it is not a target. */
export function moveTo(state, to, from = state.selected) {
  if (from === null || from === undefined) return state;
  const steps = targetsFrom(state, from).get(to);
  if (!steps) return state;
  return { ...state, partial: state.partial.concat([steps]), selected: null };
}

export function undo(state) {
  if (!state.partial.length) return { ...state, selected: null };
  return { ...state, partial: state.partial.slice(0, -1), selected: null };
}

export function resetPartial(state) { return { ...state, partial: [], selected: null }; }

// -- server messages --------------------------------------------------------------------------
function fromSnapshot(prev, d, v) {
  const s = initialState();
  Object.assign(s, {
    game: d.game, version: v ?? d.version, phase: d.phase, turn: d.turn, actor: d.actor, you: d.you,
    board: d.board.slice(), whiteBar: d.whiteBar, blackBar: d.blackBar, whiteOff: d.whiteOff, blackOff: d.blackOff,
    dice: d.dice, cube: { ...d.cube }, resignOffer: d.resignOffer, legalMoves: d.legalMoves || [],
    lastTurn: d.lastTurn, result: d.result, match: d.match, clock: d.clock, positionId: d.positionId,
    matchId: d.matchId, number: d.number, status: d.status,
    presence: prev.presence, chat: prev.chat, notices: [],
  });
  // The same game: keep the move list (a snapshot after an error or a resync).
  s.moveList = prev.game === d.game ? prev.moveList : [];
  // The same version again (a snapshot asked for fresh flags): keep what the player was doing.
  if (prev.game === d.game && prev.version === s.version) {
    s.partial = prev.partial;
    if (s.partial.length && !candidates(s).length) s.partial = [];
    if (prev.selected !== null && selectableSources(s).includes(prev.selected)) s.selected = prev.selected;
  }
  if (d.status === 'finished' && d.result) {
    s.gameEnd = { ...d.result, score: d.match.score, matchOver: ['finished', 'aborted'].includes(d.match.status),
      matchWinner: d.match.winner, nextGame: null, matchReason: d.match.endReason || null };
  }
  return s;
}

function setPhase(s, phase, actor) { s.phase = phase; s.actor = actor; }

// How each game event changes the state (after the version bookkeeping).
const APPLY = {
  game_start(s, d) {
    const p = d.position;
    Object.assign(s, { board: p.board.slice(), whiteBar: p.whiteBar, blackBar: p.blackBar,
      whiteOff: p.whiteOff, blackOff: p.blackOff, turn: p.turn, dice: null, result: null,
      lastTurn: null, resignOffer: null, status: 'playing', number: d.number, moveList: [], gameEnd: null });
    s.cube = { ...s.cube, value: 1, owner: null, canDouble: false, canBeaver: false, canRaccoon: false };
    if (s.match) s.match = { ...s.match, score: d.score, crawfordGame: d.crawfordGame };
    setPhase(s, 'opening', null);
  },
  opening_roll(s, d) {
    s.cube = { ...s.cube, value: d.cubeValue };
    s.moveList.push({ color: null, text: interpolate(d.first ? _('Opening roll: White %(white)s, Black %(black)s')
      : _('Opening roll: White %(white)s, Black %(black)s (tie)'), { white: d.white, black: d.black }, true) });
    if (!d.first) { s.dice = [d.white, d.black]; return; }
    s.turn = d.first;
    s.dice = d.first === 'white' ? [d.white, d.black] : [d.black, d.white];
    setPhase(s, 'move', d.first);
  },
  roll(s, d) {
    s.turn = d.color; s.dice = d.dice.slice();
    s.cube = { ...s.cube, canDouble: false, canRaccoon: false };
    setPhase(s, 'move', d.color);
  },
  move(s, d) {
    const { pos } = applySteps(s, d.color, d.moves);
    Object.assign(s, { board: pos.board, whiteBar: pos.whiteBar, blackBar: pos.blackBar,
      whiteOff: pos.whiteOff, blackOff: pos.blackOff });
    s.lastTurn = { color: d.color, moves: d.moves };
    const notation = d.notation || (d.moves.length ? formatSteps(d.moves, d.color) : '');
    s.moveList.push({ color: d.color, dice: d.dice, text: notation || _('cannot move'), notation: !!notation });
    s.turn = OTHER[d.color]; s.dice = null;
    setPhase(s, 'turn', s.turn);
    s.flagsStale = true;   // may the next side double? the server's snapshot says
  },
  double(s, d) {
    s.moveList.push({ color: d.color, text: interpolate(_('Doubles to %(value)s'), { value: d.cubeValue }, true) });
    s.cube = { ...s.cube, offered: d.cubeValue, canDouble: false };
    setPhase(s, 'cube_offered', OTHER[d.color]);
    s.flagsStale = true;
  },
  take(s, d) {
    s.moveList.push({ color: d.color, text: _('Takes') });
    s.cube = { ...s.cube, value: d.cubeValue, owner: d.color, offered: null, canBeaver: false };
    setPhase(s, 'turn', OTHER[d.color]);
    s.flagsStale = true;
  },
  beaver(s, d) {
    s.moveList.push({ color: d.color, text: interpolate(_('Beavers (cube %(value)s)'), { value: d.cubeValue }, true) });
    s.cube = { ...s.cube, value: d.cubeValue, owner: d.color, offered: null, canBeaver: false };
    setPhase(s, 'turn', OTHER[d.color]);
    s.flagsStale = true;
  },
  raccoon(s, d) {
    s.moveList.push({ color: d.color, text: interpolate(_('Raccoons (cube %(value)s)'), { value: d.cubeValue }, true) });
    s.cube = { ...s.cube, value: d.cubeValue, canRaccoon: false };
    s.flagsStale = true;
  },
  drop(s, d) { s.moveList.push({ color: d.color, text: _('Passes') }); setPhase(s, 'over', null); },
  resign_offer(s, d) {
    s.resignPrev = { phase: s.phase, actor: s.actor };
    s.resignOffer = { by: d.color, level: d.level, name: RESIGN_NAMES[d.level] };
    s.moveList.push({ color: d.color, text: interpolate(_('Offers to resign (%(kind)s)'), { kind: resignWord(d.level) }, true) });
    setPhase(s, 'resign_offered', OTHER[d.color]);
  },
  resign_reject(s, d) {
    const prev = s.resignPrev || { phase: s.dice ? 'move' : 'turn', actor: s.turn };
    s.resignOffer = null;
    s.moveList.push({ color: d.color, text: _('Rejects the resignation') });
    setPhase(s, prev.phase, prev.actor);
    s.flagsStale = true;
  },
  resign_accept(s, d) { s.moveList.push({ color: d.color, text: _('Accepts the resignation') }); setPhase(s, 'over', null); },
  resign(s, d) { s.moveList.push({ color: d.color, text: interpolate(_('Resigns (%(kind)s)'), { kind: resignWord(d.level) }, true) }); setPhase(s, 'over', null); },
  forfeit(s, d) { s.moveList.push({ color: d.color, text: interpolate(_('Forfeits (%(reason)s)'), { reason: reasonWord(d.reason) }, true) }); setPhase(s, 'over', null); },
  abort(s, d) { s.moveList.push({ color: null, text: interpolate(_('Aborted (%(reason)s)'), { reason: reasonWord(d.reason) }, true) }); s.abortReason = d.reason; setPhase(s, 'over', null); },
  game_end(s, d) {
    setPhase(s, 'over', null);
    s.status = 'finished'; s.dice = null; s.resignOffer = null;
    s.result = { winner: d.winner, kind: d.kind, reason: d.reason, cubeValue: d.cubeValue, points: d.points };
    s.gameEnd = { ...s.result, score: d.score, matchOver: d.matchOver, matchWinner: d.matchWinner, nextGame: d.nextGame };
    s.nextGame = d.nextGame && !d.matchOver ? d.nextGame : null;
    s.gameEnd.matchReason = d.matchReason || null;
    s.gameEnd.ratingChanges = d.ratingChanges || null;
    if (s.match) {
      s.match = { ...s.match, score: d.score };
      if (d.matchOver) s.match = { ...s.match, status: d.matchReason === 'aborted' ? 'aborted' : 'finished', winner: d.matchWinner };
      for (const [c, r] of Object.entries(d.ratingChanges || {})) {
        if (s.match[c]) s.match = { ...s.match, [c]: { ...s.match[c], rating: r.rating } };   // the seats show the new rating
      }
    }
    s.moveList.push(d.winner && d.reason === 'forfeit' && !d.points
      ? { color: d.winner, result: true, text: _('Wins by forfeit (the match is awarded; no points)') }
      : d.winner
      ? { color: d.winner, result: true, text: interpolate(ngettext('Wins %(points)s point (%(kind)s)', 'Wins %(points)s points (%(kind)s)', d.points),
        { points: d.points, kind: kindWord(d.kind) }, true) }
      : { color: null, text: d.reason === 'aborted' ? _('Aborted: no result') : _('No winner (tie)') });
  },
  rematch_offer(s, d) { s.rematch = { offeredBy: d.color, match: d.match }; },
  rematch_start(s, d) { s.rematch = { started: true, match: d.match, game: d.game }; },
};

/**
 * Fold one server message into the state. Returns a new state (the old one is not changed).
 * Versioned events apply only in order: an old one is ignored, a gap sets ``needResync``.
 */
export function reduce(state, msg) {
  const t = msg.t, d = msg.d || {};
  if (t === 'snapshot') return fromSnapshot(state, d, msg.v);
  if (t === 'presence') return { ...state, presence: d };
  if (t === 'chat_history') return { ...state, chat: d.messages.slice() };
  if (t === 'chat') return { ...state, chat: state.chat.concat([d]).slice(-200) };
  if (t === 'error' || t === 'pong') return state;
  if (!(t in APPLY) || typeof msg.v !== 'number') return state;
  if (msg.game !== undefined && msg.game !== null && state.game !== null && msg.game !== state.game) {
    // The match's next game starts with its own game_start (version 1): begin it afresh,
    // keeping who we are, the match, presence and chat. Other games' events are not ours.
    if (!(t === 'game_start' && msg.v === 1 && msg.game > state.game)) return state;
    state = { ...initialState(), game: msg.game, version: 0, you: state.you, match: state.match,
      presence: state.presence, chat: state.chat, clock: state.clock,
      previous: { game: state.game, gameEnd: state.gameEnd, moveList: state.moveList } };
  }
  if (state.version !== null && msg.v <= state.version) return state;       // seen already
  if (state.version !== null && msg.v !== state.version + 1) return { ...state, needResync: true };
  const s = { ...state, board: state.board.slice(), moveList: state.moveList.slice(), partial: [], selected: null,
    needResync: false, legalMoves: [] };
  APPLY[t](s, d);
  s.version = msg.v;
  if (msg.game !== undefined && msg.game !== null) s.game = msg.game;
  if (Array.isArray(msg.legalMoves)) s.legalMoves = msg.legalMoves;
  if (msg.state) applySummary(s, msg.state);
  else if (s.phase !== 'over') s.flagsStale = true;   // ask for a snapshot (older servers, game_start)
  return s;
}

/** The server's summary of the state after an event: phase, actor, cube permissions, clocks. */
function applySummary(s, st) {
  setPhase(s, st.phase, st.actor);
  const mine = Boolean(s.you) && st.actor === s.you;
  s.cube = { ...s.cube, value: st.cube.value, owner: st.cube.owner, enabled: st.cube.enabled,
    canDouble: mine && st.may.double, canBeaver: mine && st.may.beaver, canRaccoon: mine && st.may.raccoon };
  s.positionId = st.positionId;
  s.clock = st.clock;
  s.flagsStale = false;
}

/** Fold many messages (tests and reconnects). */
export function fold(state, messages) { return messages.reduce(reduce, state); }

// -- whose turn, for the page around the board ----------------------------------------------------
/** Whether the game waits for the viewer now: a player, on turn, the game not over. */
export const yourTurn = state => !!state.you && state.actor === state.you && state.status !== 'finished';

/**
 * The game page's "Next match" for a player with ``elsewhere`` other matches waiting for him (the
 * page's boot data): once this match is over, or in correspondence while the opponent is to act.
 * Never during a live match (its clock and its opponent wait for him here), nor with nowhere to go.
 */
export function nextMatchShown(state, elsewhere) {
  if (!state.you || !(elsewhere > 0)) return false;
  const m = state.match || {};
  if (m.status === 'finished' || m.status === 'aborted' || (state.gameEnd && state.gameEnd.matchOver)) return true;
  return !!(m.timeControl && m.timeControl.kind === 'correspondence') && !yourTurn(state);
}

// -- text ----------------------------------------------------------------------------------------

/** A sentence describing the board for screen readers. */
export function describe(state) {
  const pips = pipCounts(state);
  const who = c => state.you === c ? _('you') : (state.match && state.match[c] ? state.match[c].name : colorName(c));
  const parts = [];
  if (state.phase === 'over' || state.status === 'finished') {
    const w = state.result && state.result.winner;
    if (w) parts.push(interpolate(_('Game over: %(color)s (%(name)s) wins %(points)s.'), { color: colorName(w), name: who(w), points: state.result.points }, true));
    else parts.push(_('Game over.'));
  } else if (state.phase === 'opening') parts.push(_('Opening roll.'));
  else if (state.actor) {
    const act = { move: _('%(color)s (%(name)s) to move.'), turn: _('%(color)s (%(name)s) to roll or double.'),
      cube_offered: _('%(color)s (%(name)s) to take or pass the double.'),
      resign_offered: _('%(color)s (%(name)s) to answer the resignation.') }[state.phase] || _('%(color)s (%(name)s) to act.');
    parts.push(interpolate(act, { color: colorName(state.actor), name: who(state.actor) }, true));
  }
  if (state.dice && state.phase === 'move') {
    parts.push(state.dice.length === 2 ? interpolate(_('Dice %(first)s and %(second)s.'), { first: state.dice[0], second: state.dice[1] }, true)
      : interpolate(_('Dice %(dice)s.'), { dice: state.dice.join(' ') }, true));
  }
  parts.push(interpolate(_('Pips: White %(white)s, Black %(black)s.'), pips, true));
  // Where the checkers are, in the listener's point numbers (White's for a spectator).
  for (const c of ['white', 'black']) {
    const at = [];
    for (let p = 24; p >= 1; p--) {
      const n = c === 'white' ? state.board[p] : -state.board[p];
      if (n > 0) at.push(interpolate(_('%(count)s on %(point)s'), { count: n, point: state.you === 'black' ? 25 - p : p }, true));
    }
    const list = at.join(', ') || _('none on the points');
    parts.push(interpolate(c === 'white' ? _('White checkers: %(list)s.') : _('Black checkers: %(list)s.'), { list }, true));
  }
  if (state.whiteBar || state.blackBar) parts.push(interpolate(_('On the bar: White %(white)s, Black %(black)s.'), { white: state.whiteBar, black: state.blackBar }, true));
  if (state.whiteOff || state.blackOff) parts.push(interpolate(_('Borne off: White %(white)s, Black %(black)s.'), { white: state.whiteOff, black: state.blackOff }, true));
  if (state.cube && state.cube.enabled) {
    parts.push(state.cube.owner ? interpolate(_('Cube %(value)s, owned by %(color)s.'), { value: state.cube.value, color: colorName(state.cube.owner) }, true)
      : interpolate(_('Cube %(value)s, centred.'), { value: state.cube.value }, true));
  }
  if (state.partial.length) parts.push(interpolate(_('Your play so far: %(play)s.'), { play: formatSteps(flatPartial(state), state.you) }, true));
  return parts.join(' ');
}
