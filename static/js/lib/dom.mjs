// Small helpers the pages share. Nothing here touches the page when imported, so the pure
// modules (state.mjs, analysis_core.mjs) use them under node too.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside HTML, in an element or in a quoted attribute (null and undefined: ''). */
export const esc = s => String(s ?? '').replace(/[&<>"']/g, c => ESCAPES[c]);

/** "white" -> "White". */
export const cap = c => (c ? c[0].toUpperCase() + c.slice(1) : '');

/** The element with this id. */
export const $ = id => document.getElementById(id);

const written = new WeakMap();   // element -> the markup setHTML last gave it

/**
 * Give ``el`` the markup ``html`` unless it already holds it; returns whether it changed.
 * A page re-rendered on every message must not replace what the player is pressing: a button
 * replaced between the press and the release loses the click (the browser sends it to what
 * the two have in common), and a row replaced loses its focus and hover.
 */
export function setHTML(el, html) {
  if (written.get(el) === html) return false;
  el.innerHTML = html;
  written.set(el, html);
  return true;
}

/** The CSRF token Django wants on a POST: the page's form field, else the cookie. */
export function csrfToken() {
  const field = document.querySelector('input[name=csrfmiddlewaretoken]');
  return (field && field.value) || (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || '';
}

/** A toast in ``el`` (``role="alert"``): ``show(text, code)`` shows it for ``ms``, then hides it. */
export function toaster(el, ms) {
  let timer = null;
  return (text, code = '') => {
    el.textContent = text;
    el.dataset.code = code;
    el.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(() => { el.hidden = true; }, ms);
  };
}

/** The skip link (``#skip-board``) puts the focus on the board itself, not only scrolls to it. */
export function skipToBoard(board) {
  const link = document.getElementById('skip-board');
  if (link) link.addEventListener('click', e => { e.preventDefault(); board.focus(); });
}
