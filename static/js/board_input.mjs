// Moving checkers on the board, for any page whose player has a play to make (the game page,
// and the chouette's player on roll): click or tap a checker then a highlighted target, drag
// it, or use the keyboard (point numbers, arrows, Enter, Backspace to undo, Escape, B, O).
// A completed play is confirmed with Enter or the page's button, or sent at once when the
// player's "confirm before sending" is off. The rules are the server's legal plays, filtered
// by state.mjs; what a click means is play.mjs's.
import { hitAt, WIDTH, HEIGHT } from './board.mjs';
import { clickPoint, dropOn } from './play.mjs';
import { completedPlay, selectableSources, targetsFrom, select, undo as undoStep, canMoveNow } from './state.mjs';

const FOCUSABLE = 'input, textarea, select, button, summary, a';

/**
 * Wire the board's input. ``get()`` and ``set(state)`` read and replace the page's state
 * (state.mjs's shape); ``render()`` redraws; ``confirm(play)`` sends a completed play;
 * ``enter()`` is Enter when there is no play to make or confirm (the game page rolls);
 * ``moved(dragged)`` follows each checker moved (a sound; ``dragged``: it was carried there,
 * not clicked); ``options()`` gives ``{confirm, numbers}``.
 * Returns ``{cursor, resetCursor(), undo(), confirmPlay()}``.
 */
export function boardInput({ board, dragLayer, get, set, render, confirm, enter = () => {}, moved = () => {},
  options = () => ({ confirm: true }) }) {
  let cursor = null, drag = null, digits = '', digitTimer = null;

  function apply({ state, moved: didMove }, dragged = false) {
    set(state);
    if (didMove) { cursor = null; moved(dragged); }
    render();
    if (didMove && !options().confirm && completedPlay(get())) confirmPlay();
  }

  const activate = p => { if (canMoveNow(get()) && p !== null) apply(clickPoint(get(), p)); };

  function confirmPlay() {
    const play = completedPlay(get());
    if (play) confirm(play);
  }

  function undo() { set(undoStep(get())); cursor = null; render(); }

  board.addEventListener('pointerdown', e => {
    const p = hitAt(e.clientX, e.clientY), state = get();
    if (p === null || !canMoveNow(state)) return;
    const canDrag = selectableSources(state).includes(p);
    drag = { p, x: e.clientX, y: e.clientY, moved: false, canDrag };
    if (canDrag) board.setPointerCapture(e.pointerId);
  });
  board.addEventListener('pointermove', e => {
    if (!drag || !drag.canDrag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
    if (!drag.moved) { drag.moved = true; set(select(get(), drag.p)); render(); }
    const r = board.getBoundingClientRect();
    const x = (e.clientX - r.left) * (WIDTH / r.width), y = (e.clientY - r.top) * (HEIGHT / r.height);
    dragLayer.innerHTML = `<g class="checker ${get().you} ghost"><circle cx="${x}" cy="${y}" r="27"/><circle class="rim" cx="${x}" cy="${y}" r="20"/></g>`;
  });
  board.addEventListener('pointerup', e => {
    if (!drag) return;
    const d = drag;
    if (!d.moved) { drag = null; dragLayer.innerHTML = ''; activate(d.p); return; }
    drag = null;
    const from = board.querySelector('.checker.selected circle');
    const result = dropOn(get(), d.p, hitAt(e.clientX, e.clientY));
    apply(result, true);
    if (result.moved || !from || !dragLayer.firstChild || !dragLayer.firstChild.animate) { dragLayer.innerHTML = ''; return; }
    // dropped where it cannot go: the checker slides back to its point
    const ghost = dragLayer.firstChild, c = ghost.querySelector('circle');
    const dx = from.getAttribute('cx') - c.getAttribute('cx'), dy = from.getAttribute('cy') - c.getAttribute('cy');
    ghost.classList.add('returning');
    ghost.animate([{ transform: 'translate(0, 0)' }, { transform: `translate(${dx}px, ${dy}px)` }], { duration: 180, easing: 'ease-out' })
      .finished.then(() => { if (dragLayer.firstChild === ghost) dragLayer.innerHTML = ''; }, () => {});
  });
  board.addEventListener('pointercancel', () => { drag = null; dragLayer.innerHTML = ''; });

  function choices() {
    const state = get();
    if (state.selected !== null && state.selected !== undefined) return [...targetsFrom(state, state.selected).keys()];
    return selectableSources(state);
  }
  // Point numbers as the player sees them: his own, or White's (a setting).
  const fromViewer = n => (options().numbers !== 'white' && get().you === 'black' ? 25 - n : n);

  document.addEventListener('keydown', e => {
    if (e.target.closest(FOCUSABLE) && e.key !== 'Escape') return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const list = choices();
    if (['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown'].includes(e.key)) {
      if (!list.length) return;
      const i = list.indexOf(cursor), dir = (e.key === 'ArrowRight' || e.key === 'ArrowDown') ? 1 : -1;
      cursor = list[(i + dir + list.length) % list.length];
      e.preventDefault(); render();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (cursor !== null && list.includes(cursor)) { const c = cursor; cursor = null; activate(c); }
      else if (completedPlay(get())) confirmPlay();
      else enter();
    } else if (e.key === 'Backspace') {
      e.preventDefault(); undo();
    } else if (e.key === 'Escape') {
      set(select(get(), null)); cursor = null; render();
    } else if (e.key === 'b' || e.key === 'B') activate('bar');
    else if (e.key === 'o' || e.key === 'O') activate('off');
    else if (/^\d$/.test(e.key)) {
      digits += e.key; clearTimeout(digitTimer);
      const n = Number(digits);
      const fire = () => { const v = Number(digits); digits = ''; if (v >= 1 && v <= 24) activate(fromViewer(v)); };
      if (digits.length === 2 || n > 2 || n === 0) fire(); else digitTimer = setTimeout(fire, 700);
    }
  });

  return {
    get cursor() { return cursor; },
    resetCursor() { cursor = null; },
    undo, confirmPlay,
  };
}
