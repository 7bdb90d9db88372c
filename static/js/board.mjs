// The board in SVG: a pure function from a view of the position to markup.
//
// The viewer's home board is at the bottom right (White: points 1-6; Black: its own
// 1-6, absolute 24-19). ``flipped`` mirrors the board left to right.

import { esc } from './lib/dom.mjs';

const M = 16, PW = 60, BAR = 56, TRAY = 64, H = 640, HALF = 304, R = 27, STEP = 54;
export const WIDTH = M + 12 * PW + BAR + M + TRAY + M; // 888
export const HEIGHT = H;

/** The viewer's number of an absolute point (1..24). */
export function viewerPoint(p, you) { return you === 'black' ? 25 - p : p; }

function geometry(flipped) {
  const boardX = flipped ? M + TRAY + M : M;
  const trayX = flipped ? M : M + 12 * PW + BAR + M;
  return { boardX, trayX, barX: boardX + 6 * PW };
}

/** Column (0 left .. 11 right) and side of an absolute point for this viewer. */
function place(p, you, flipped) {
  const vp = viewerPoint(p, you);
  let col, top;
  if (vp <= 12) { col = 12 - vp; top = false; } else { col = vp - 13; top = true; }
  if (flipped) col = 11 - col;
  return { col, top };
}

function colX(g, col) { return g.boardX + col * PW + (col >= 6 ? BAR : 0); }

/** Centre of the i-th checker (0 at the edge) on an absolute point. */
export function checkerXY(p, i, you, flipped) {
  const g = geometry(flipped), { col, top } = place(p, you, flipped);
  const x = colX(g, col) + PW / 2;
  const y = top ? M + R + 1 + i * STEP : H - M - R - 1 - i * STEP;
  return { x, y };
}

/**
 * Centre of a checker ``{at: p | 'bar' | 'off', color, i}`` (i: its place in the stack, 0 at
 * the edge) for a view ``{you, flipped}``: the points, the bar (the viewer's checkers in the top
 * half) and the tray (the viewer's at the bottom). What render and the animations share.
 */
export function placeXY(place, view) {
  const you = view.you || 'white', g = geometry(view.flipped), i = place.i || 0;
  if (place.at === 'bar') {
    const dir = place.color === you ? -1 : 1;
    return { x: g.barX + BAR / 2, y: H / 2 + dir * (R + 36 + Math.min(i, 3) * STEP) };
  }
  if (place.at === 'off') {
    const top = place.color !== you;
    return { x: g.trayX + TRAY / 2, y: (top ? M + 6 + i * 17 : H - M - 6 - 14 - i * 17) + 7 };
  }
  return checkerXY(place.at, Math.min(i, 4), you, view.flipped);
}

/** Centre of the cube ``{value, owner}``: on the bar, or on its owner's side of the tray. */
export function cubeXY(cube, view) {
  const g = geometry(view.flipped), me = view.you || 'white';
  if (!cube.owner) return { x: g.barX + BAR / 2, y: H / 2 };
  const off = view.bigLabels ? 86 : 50;   // a phone: the dice are in the tray's middle
  return { x: g.trayX + TRAY / 2, y: cube.owner === me ? H / 2 + off : H / 2 - off };
}

// Gradients (their colours are the theme's, in game.css): light from the top left.
const DEFS = '<defs><linearGradient id="bg-wood" x1="0" y1="0" x2="1" y2="1"><stop offset="0" class="wood-a"/><stop offset="1" class="wood-b"/></linearGradient>' +
  '<radialGradient id="bg-felt" cx=".5" cy=".5" r=".75"><stop offset="0" class="felt-a"/><stop offset="1" class="felt-b"/></radialGradient>' +
  '<radialGradient id="bg-chk-white" cx=".38" cy=".32" r=".75"><stop offset="0" class="chk-white-a"/><stop offset="1" class="chk-white-b"/></radialGradient>' +
  '<radialGradient id="bg-chk-black" cx=".38" cy=".32" r=".75"><stop offset="0" class="chk-black-a"/><stop offset="1" class="chk-black-b"/></radialGradient></defs>';

export function checker(x, y, color, cls = '', label = '') {
  return `<g class="checker ${color} ${cls}"><circle cx="${x}" cy="${y}" r="${R}"/>` +
    `<circle class="rim" cx="${x}" cy="${y}" r="${R - 7}"/>` +
    (label ? `<text x="${x}" y="${y + 6}" class="count">${esc(label)}</text>` : '') + '</g>';
}

export function cubeMarkup(x, y, value) {
  return `<g class="cube" data-cube="${value}"><rect x="${x - 22}" y="${y - 22}" width="44" height="44" rx="6"/>` +
    `<text x="${x}" y="${y + 8}">${value === 1 ? 64 : value}</text></g>`;
}

/** The result marked on the board at a game's end: a plaque over the middle, the winner's
 *  checker beside two lines (``{color, title, detail}``, worded by the page: texts.mjs).
 *  On a small board (``big``: a phone) it is drawn larger, to be read. */
export const PLAQUE = { w: 400, h: 96 };
const plaqueScale = big => (big ? 1.6 : 1);
export const plaqueSize = big => ({ w: PLAQUE.w * plaqueScale(big), h: PLAQUE.h * plaqueScale(big) });
export function resultXY(view) {
  const g = geometry(view.flipped);
  return { x: g.barX + BAR / 2, y: H / 2 };
}
export function resultMarkup(x, y, result, big = false) {
  const k = plaqueScale(big), { w, h } = plaqueSize(big), left = x - w / 2;
  const tx = result.color ? left + 84 * k + (w - 100 * k) / 2 : x;
  const mark = result.color ? `<g transform="translate(${left + 48 * k} ${y}) scale(${k})">${checker(0, 0, result.color)}</g>` : '';
  const room = (result.color ? w - 100 * k : w - 40 * k) - 8 * k;
  return `<g class="result ${result.color || 'none'}${big ? ' big' : ''}"><rect x="${left}" y="${y - h / 2}" width="${w}" height="${h}" rx="${12 * k}"/>` +
    mark + `<text ${fit('title', result.title, 30 * k, room, 0.47)} x="${tx}" y="${y - 6 * k}">${esc(result.title)}</text>` +
    `<text ${fit('detail', result.detail || '', 20 * k, room, 0.41)} x="${tx}" y="${y + 26 * k}">${esc(result.detail || '')}</text></g>`;
}

/** A plaque's line kept inside it: a long one gets the smaller type (class ``long``, game.css),
 *  and one still too long is pressed to the room there is (``textLength``). The width is
 *  estimated (no layout here): ``em`` of the type's size a character (a little over the
 *  system font's average, bold for the title). */
function fit(cls, text, size, room, em) {
  const wide = n => [...text].length * n * em;
  if (wide(size) <= room) return `class="${cls}"`;
  const small = size * 0.8;
  return `class="${cls} long"${wide(small) > room ? ` textLength="${Math.round(room)}" lengthAdjust="spacingAndGlyphs"` : ''}`;
}

const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

export function die(x, y, value, color, used, s = 44) {
  const k = s / 44;
  let out = `<g class="die ${color}${used ? ' used' : ''}" data-die="${value}"><rect x="${x - s / 2}" y="${y - s / 2}" width="${s}" height="${s}" rx="${8 * k}"/>`;
  for (const [dx, dy] of PIPS[value] || []) out += `<circle cx="${x + dx * 11 * k}" cy="${y + dy * 11 * k}" r="${4.6 * k}"/>`;
  return out + '</g>';
}

/** Centre and size of the i-th of n dice drawn. */
export function diceXY(view, i, n) {
  const g = geometry(view.flipped);
  if (view.bigLabels) return { x: g.trayX + TRAY / 2, y: H / 2 + (i - (n - 1) / 2) * 46, s: 40 };
  const right = view.diceColor === (view.you || 'white') ? !view.flipped : view.flipped;
  const cx = right ? g.barX + BAR + 3 * PW : g.boardX + 3 * PW;
  return { x: cx + (i - (n - 1) / 2) * 54, y: H / 2, s: 44 };
}

/**
 * view: {pos: {board, whiteBar, blackBar, whiteOff, blackOff}, you, flipped, selectable: [p|'bar'],
 *        selected, targets: [p|'off'], cursor, dice, diceColor, usedDice: [bool], cube: {value, owner, enabled},
 *        lastTurn: {color, moves}, bigLabels: bool, numbers: 'mine' | 'white',
 *        result: {color, title, detail} (a finished game: resultMarkup)}
 */
export function renderBoard(view) {
  const { pos, flipped } = view;
  const you = view.you || 'white';
  const me = you, opp = you === 'white' ? 'black' : 'white';
  const g = geometry(flipped);
  const sel = new Set(view.selectable || []), tgt = new Set(view.targets || []);
  const lastTo = new Set(view.lastTurn ? view.lastTurn.moves.map(m => m.to) : []);
  const lastFrom = new Set(view.lastTurn ? view.lastTurn.moves.map(m => m.from) : []);
  // Sections in <g>s, each point's checkers in their own: patchBoard replaces only what changed.
  let out = `<g class="ground">${DEFS}<rect class="frame" x="0" y="0" width="${WIDTH}" height="${H}" rx="14"/>`;
  out += `<rect class="felt" x="${g.boardX}" y="${M}" width="${6 * PW}" height="${H - 2 * M}"/>`;
  out += `<rect class="felt" x="${g.barX + BAR}" y="${M}" width="${6 * PW}" height="${H - 2 * M}"/>`;
  out += `<rect class="bar" x="${g.barX}" y="${M}" width="${BAR}" height="${H - 2 * M}"/>`;
  out += `<rect class="tray" x="${g.trayX}" y="${M}" width="${TRAY}" height="${H - 2 * M}" rx="6"/>`;
  // points, their labels and hit areas
  for (let p = 1; p <= 24; p++) {
    const { col, top } = place(p, you, flipped);
    const x = colX(g, col), tip = top ? M + 262 : H - M - 262, base = top ? M : H - M;
    const shade = (col + (top ? 0 : 1)) % 2 ? 'dark' : 'light';
    const cls = `point ${shade}${lastFrom.has(p) ? ' last-from' : ''}${lastTo.has(p) ? ' last-to' : ''}`;
    out += `<polygon class="${cls}" points="${x + 2},${base} ${x + PW - 2},${base} ${x + PW / 2},${tip}"/>`;
    // Point numbers: in the frame's margin, or (bigLabels: a small board, a phone) large,
    // near the tips in the gap between the halves, where a 5-checker stack does not reach.
    const number = view.numbers === 'white' ? p : viewerPoint(p, you);   // a setting: from White's side
    out += view.bigLabels
      ? `<text class="label big" x="${x + PW / 2}" y="${top ? HALF + 8 : HALF + 50}">${number}</text>`
      : `<text class="label" x="${x + PW / 2}" y="${top ? M - 4 : H - 4}">${number}</text>`;
  }
  out += '</g><g class="stacks">';
  // checkers on points
  for (let p = 1; p <= 24; p++) {
    const n = Math.abs(pos.board[p]);
    out += `${p > 1 ? '</g>' : ''}<g data-stack="${p}">`;
    const color = pos.board[p] > 0 ? 'white' : 'black';
    for (let i = 0; i < Math.min(n, 5); i++) {
      const { x, y } = checkerXY(p, i, you, flipped);
      const topmost = i === Math.min(n, 5) - 1;
      let cls = '';
      if (topmost && sel.has(p)) cls += ' selectable';
      if (topmost && view.selected === p) cls += ' selected';
      out += checker(x, y, color, cls, topmost && n > 5 ? n : '');
    }
  }
  // the bar: the viewer's checkers in the top half (they enter there), the opponent's below
  const barCx = g.barX + BAR / 2;
  for (const color of [me, opp]) {
    const n = pos[color + 'Bar'];
    out += `</g><g data-stack="bar-${color}">`;
    for (let i = 0; i < Math.min(n, 4); i++) {
      const { x, y } = placeXY({ at: 'bar', color, i }, view);
      const topmost = i === Math.min(n, 4) - 1;
      let cls = '';
      if (color === me && topmost && sel.has('bar')) cls += ' selectable';
      if (color === me && topmost && view.selected === 'bar') cls += ' selected';
      out += checker(x, y, color, cls, topmost && n > 4 ? n : (n > 1 && topmost ? n : ''));
    }
  }
  // borne-off checkers: the viewer's at the bottom of the tray, the opponent's at the top
  for (const [color, top] of [[me, false], [opp, true]]) {
    const n = pos[color + 'Off'];
    out += `</g><g data-stack="off-${color}">`;
    for (let i = 0; i < n; i++) {
      const y = top ? M + 6 + i * 17 : H - M - 6 - 14 - i * 17;
      out += `<rect class="off ${color}" x="${g.trayX + 8}" y="${y}" width="${TRAY - 16}" height="14" rx="3"/>`;
    }
    if (n) out += `<text class="off-count" x="${g.trayX + TRAY / 2}" y="${top ? M + 6 + n * 17 + 14 : H - M - 6 - n * 17 - 4}">${n}</text>`;
  }
  out += '</g></g><g class="cube-layer">';
  // the cube: centred on the bar, or on its owner's side
  if (view.cube && view.cube.enabled) {
    const { x, y } = cubeXY(view.cube, view);
    out += cubeMarkup(x, y, view.cube.value);
  }
  out += '</g><g class="dice-layer">';
  // dice: in the half of whoever rolled them (the viewer's on the right); on a small board
  // (bigLabels) the point numbers fill the middle strip, so the dice stand in the tray
  if (view.rollPrompt && !view.dice) {   // the dice to throw, in the roller's half: a click rolls them
    for (const i of [0, 1]) {
      const { x, y, s } = diceXY({ ...view, diceColor: view.you || 'white' }, i, 2);
      out += `<g class="die roll-me ${view.you || 'white'}" data-roll="${i}"><rect x="${x - s / 2}" y="${y - s / 2}" width="${s}" height="${s}" rx="${8 * s / 44}"/></g>`;
    }
  }
  if (view.dice) {
    const used = view.usedDice || [];
    for (const [i, d] of view.dice.entries()) {
      const { x, y, s } = diceXY(view, i, view.dice.length);
      out += die(x, y, d, view.diceColor, used[i], s);
    }
  }
  out += '</g><g class="result-layer">';
  if (view.result) {
    const { x, y } = resultXY(view);
    out += resultMarkup(x, y, view.result, view.bigLabels);
  }
  out += '</g><g class="marks">';
  // targets (drawn over checkers) and the keyboard cursor
  for (const t of tgt) {
    if (t === 'off') {
      out += `<rect class="target" data-target="off" x="${g.trayX + 4}" y="${H / 2 + 20}" width="${TRAY - 8}" height="${HALF - 40}" rx="8"/>`;
      continue;
    }
    const n = Math.abs(pos.board[t]);
    const own = pos.board[t] !== 0 && (pos.board[t] > 0) === (me === 'white');
    const { x, y } = checkerXY(t, own ? Math.min(n, 4) : 0, you, flipped);
    out += `<circle class="target" data-target="${t}" cx="${x}" cy="${y}" r="${R - 3}"/>`;
  }
  if (view.cursor !== null && view.cursor !== undefined) {
    const c = view.cursor;
    const xy = c === 'bar' ? { x: barCx, y: H / 2 - R - 36 } : c === 'off' ? { x: g.trayX + TRAY / 2, y: H - 90 }
      : checkerXY(c, 0, you, flipped);
    out += `<circle class="cursor" cx="${xy.x}" cy="${xy.y}" r="${R + 5}"/>`;
  }
  out += '</g><g class="hits">';
  // hit areas: whole points, the bar and the tray (for clicks, taps and drops)
  for (let p = 1; p <= 24; p++) {
    const { col, top } = place(p, you, flipped);
    out += `<rect class="hit" data-hit="${p}" x="${colX(g, col)}" y="${top ? M : H / 2}" width="${PW}" height="${HALF}"/>`;
  }
  out += `<rect class="hit" data-hit="bar" x="${g.barX}" y="${M}" width="${BAR}" height="${H - 2 * M}"/>`;
  out += `<rect class="hit" data-hit="off" x="${g.trayX}" y="${M}" width="${TRAY}" height="${H - 2 * M}"/>`;
  return out + '</g>';
}

const sameAttributes = (a, b) => a.attributes.length === b.attributes.length &&
  [...a.attributes].every(at => b.getAttribute(at.name) === at.value);

function sync(cur, next, depth) {
  const want = [...next.childNodes];
  want.forEach((node, k) => {
    const have = cur.childNodes[k];
    if (!have) cur.appendChild(node);
    else if (have.isEqualNode(node)) return;
    else if (depth > 0 && have.nodeName === node.nodeName && have.nodeType === 1 && sameAttributes(have, node)) sync(have, node, depth - 1);
    else cur.replaceChild(node, have);
  });
  while (cur.childNodes.length > want.length) cur.removeChild(cur.lastChild);
}

/** ``markup``'s top-level ``<g>`` elements as strings, or null when it is not only those. */
export function sections(markup) {
  const out = [], tags = /<g[\s>]|<\/g>/g;
  let depth = 0, start = 0, m;
  while ((m = tags.exec(markup))) {
    if (m[0] === '</g>') {
      if (--depth === 0) { out.push(markup.slice(start, m.index + 4)); start = m.index + 4; }
    } else if (depth++ === 0 && m.index !== start) return null;
  }
  return depth === 0 && start === markup.length ? out : null;
}

const drawn = new WeakMap();   // el -> {parts, nodes}: the sections last put there, and their nodes

/**
 * Put ``markup`` (renderBoard's, maybe more) in the SVG ``el``, changing only the parts that
 * differ (a point's stack, the dice, the marks): the page restyles a few nodes, not the board.
 * A top-level section whose text is the one drawn last (and still there) is not even parsed:
 * the ground and the hit areas, most of the markup, stay as they are. The result is the same
 * as ``el.innerHTML = markup``.
 */
export function patchBoard(el, markup) {
  const parts = sections(markup), last = drawn.get(el);
  const next = el.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'svg');
  if (parts && last && parts.length === last.parts.length && el.childNodes.length === parts.length &&
      last.nodes.every((node, i) => el.childNodes[i] === node)) {
    parts.forEach((part, i) => {
      if (part === last.parts[i]) return;
      next.innerHTML = part;
      const have = el.childNodes[i], want = next.firstChild;
      if (have.nodeName === want.nodeName && sameAttributes(have, want)) sync(have, want, 1);
      else el.replaceChild(want, have);
    });
  } else {
    next.innerHTML = markup;
    sync(el, next, 2);
  }
  drawn.set(el, { parts: parts || [], nodes: parts ? [...el.childNodes] : [] });
}

/** The hit area (point number, 'bar' or 'off') under a client position, or null. */
export function hitAt(x, y) {
  for (const el of document.elementsFromPoint(x, y)) {
    const h = el.getAttribute && el.getAttribute('data-hit');
    if (h) return /^\d+$/.test(h) ? Number(h) : h;
  }
  return null;
}
