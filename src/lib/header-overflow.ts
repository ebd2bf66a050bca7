/**
 * The header bar holds any number of pages: the entries that do not fit move, last first, into the
 * bar's 'Mais' menu (above its own entries, same order), measured again whenever the bar's width changes
 * (window, reading badge, fonts). The bar's links stay in the page, hidden, so the menu copies them.
 */
export function fitNavBar(bar: HTMLElement | null): void {
  const more = bar?.querySelector<HTMLDetailsElement>('details[data-menu="more"]');
  const list = more?.querySelector<HTMLElement>("[data-more-list]");
  if (!bar || !more || !list) return;
  const links = [...bar.querySelectorAll<HTMLAnchorElement>(":scope > a")];
  const summary = more.querySelector("summary")!;
  const linkClass = list.dataset.linkClass ?? "";
  let width = -1;

  const overflows = () => summary.getBoundingClientRect().right > bar.getBoundingClientRect().right + 0.5;

  function fit() {
    for (const item of list!.querySelectorAll("[data-overflow]")) item.remove();
    for (const link of links) link.hidden = false;
    if (!bar!.checkVisibility()) return;
    let shown = links.length;
    // The first entry ('Home') always stays on the bar.
    while (shown > 1 && overflows()) links[--shown]!.hidden = true;
    for (const link of links.slice(shown).reverse()) {
      const item = document.createElement("li");
      item.dataset.overflow = "";
      const copy = document.createElement("a");
      copy.href = link.getAttribute("href")!;
      copy.textContent = link.textContent;
      copy.className = linkClass;
      if (link.hasAttribute("aria-current")) copy.setAttribute("aria-current", link.getAttribute("aria-current")!);
      item.append(copy);
      list!.prepend(item);
    }
  }

  new ResizeObserver(([entry]) => {
    const next = Math.round(entry!.contentRect.width);
    if (next === width) return;
    width = next;
    fit();
  }).observe(bar);
  void document.fonts?.ready.then(fit);
}
