// The language switcher in every page's footer: a choice is sent at once (the button is for
// browsers without scripts).
const form = document.querySelector(".language-switcher");
if (form) {
  form.querySelector(".language-change")?.setAttribute("hidden", "");
  form.querySelector("select")?.addEventListener("change", () => form.requestSubmit());
}
