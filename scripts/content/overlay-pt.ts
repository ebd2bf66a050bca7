/**
 * `astro dev` only: the fixed English words of Astro's error overlay (title, section names, links,
 * the theme switch) in Portuguese. The overlay is a custom element with an open shadow root, filled
 * after it is attached: its text nodes are translated once it appears and again when it changes.
 * The messages themselves are ours (content problems, MDX errors) and already in Portuguese.
 */
export const OVERLAY_WORDS: Readonly<Record<string, string>> = {
  "An error occurred.": "Ocorreu um erro.",
  "Stack Trace": "Pilha de chamadas",
  Cause: "Causa",
  "Use dark theme": "Usar tema escuro",
  "See Docs Reference": "Ver a documentação",
  "Open in editor": "Abrir no editor",
};

/** The page script `astro dev` injects (a string: it runs in the browser, not in Node). */
export const OVERLAY_PT_SCRIPT = `
const words = new Map(Object.entries(${JSON.stringify(OVERLAY_WORDS)}));
function translate(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.trim();
    if (words.has(text)) node.nodeValue = node.nodeValue.replace(text, words.get(text));
  }
}
function watch(overlay) {
  if (!overlay.shadowRoot || overlay.dataset.b1Pt) return;
  overlay.dataset.b1Pt = "1";
  translate(overlay.shadowRoot);
  new MutationObserver(() => translate(overlay.shadowRoot)).observe(overlay.shadowRoot, { childList: true, subtree: true, characterData: true });
}
new MutationObserver(() => document.querySelectorAll("vite-error-overlay").forEach(watch)).observe(document.documentElement, { childList: true, subtree: true });
document.querySelectorAll("vite-error-overlay").forEach(watch);
`;
