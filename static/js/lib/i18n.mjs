// The browser's strings in the page's language: Django's JavaScript catalog (/jsi18n/, loaded
// by base.html before the modules) defines globalThis.django; without it (node tests, a page
// without the catalog) the English source is returned. Mark every string a person reads:
//   import { gettext as _, ngettext, interpolate } from "./lib/i18n.mjs";
//   _("Your turn")   interpolate(_("%(name)s doubles"), { name }, true)
// `make messages` collects them into locale/<code>/LC_MESSAGES/djangojs.po (docs/TRANSLATING.md).

const catalog = () => globalThis.django;

export function gettext(text) {
  return catalog()?.gettext ? catalog().gettext(text) : text;
}

export function ngettext(singular, plural, count) {
  return catalog()?.ngettext ? catalog().ngettext(singular, plural, count) : (count === 1 ? singular : plural);
}

export function pgettext(context, text) {
  return catalog()?.pgettext ? catalog().pgettext(context, text) : text;
}

// interpolate("%(n)s points", { n: 3 }, true) or interpolate("%s points", [3]): as Django's.
export function interpolate(format, values, named = false) {
  if (catalog()?.interpolate) return catalog().interpolate(format, values, named);
  const list = named ? null : [...values];
  return named
    ? format.replace(/%\(\w+\)s/g, (m) => String(values[m.slice(2, -2)]))
    : format.replace(/%s/g, () => String(list.shift()));
}

// Numbers and dates in the page's language (the <html lang>), notation left alone.
export function locale() {
  return globalThis.document?.documentElement?.lang || "en";
}

// A signed number (+0.139, −0.130) keeps its sign in front in a right-to-left page, where the
// bidi algorithm would draw "0.130−": there it goes in a left-to-right isolate; elsewhere the text
// is left as it is.
const SIGNED = /(?<![\p{L}\p{N}\u2066])[−+-]\d+(?:[.,]\d+)*/gu;
export function ltrNumbers(text) {
  return globalThis.document?.documentElement?.dir === 'rtl' ? String(text).replace(SIGNED, '\u2066$&\u2069') : text;
}

// Move notation inside a sentence ("24/18 13/10") in a left-to-right isolate in a right-to-left
// page (the text's <bdi class="notation">, for text that is not HTML).
export function ltrText(text) {
  return text && globalThis.document?.documentElement?.dir === 'rtl' ? `\u2066${text}\u2069` : text;
}

export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(locale(), options).format(value);
}

export function formatDate(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(locale(), options).format(value instanceof Date ? value : new Date(value));
}
