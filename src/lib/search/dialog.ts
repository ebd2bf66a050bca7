/**
 * The search dialog's behaviour (SearchDialog.astro loads it on the first open): runs each query
 * (src/lib/search/query.ts over the person's Pagefind bundles), shows the results, the "Você quis
 * dizer …?" and "Termos próximos" lines, and moves the highlight with the arrow keys.
 */
import type { SearchReporter } from "../insights/search-beacon";
import { createSearchSession, type PagefindData as ResultData, type PagefindSubResult as SubResult } from "./pagefind-engine";

export interface DialogSearch {
  ready: () => Promise<unknown>;
  run: (query: string, wait?: number) => Promise<void>;
  /** Moves the highlighted result by `step` (wrapping). */
  move: (step: number) => void;
  /** Opens the highlighted result, if any. */
  openActive: () => void;
}

export function createDialogSearch(reporter: SearchReporter): DialogSearch {
  const session = createSearchSession();
  const input = document.querySelector<HTMLInputElement>("[data-search-input]");
  const list = document.querySelector<HTMLUListElement>("[data-search-results]");
  const status = document.querySelector<HTMLParagraphElement>("[data-search-status]");
  const hint = document.querySelector<HTMLParagraphElement>("[data-search-hint]");
  let active = -1;
  /** The query whose answer is on screen or on its way; an older answer arriving late is dropped. */
  let latest = 0;
  let pending: ReturnType<typeof setTimeout> | undefined;

  // The focus stays in the field; aria-activedescendant tells screen readers which result is highlighted.
  function highlight(index: number) {
    const items = [...(list?.querySelectorAll<HTMLAnchorElement>("a") ?? [])];
    if (!items.length) return;
    active = (index + items.length) % items.length;
    items.forEach((item, i) => item.setAttribute("aria-selected", String(i === active)));
    input?.setAttribute("aria-activedescendant", items[active]!.id);
    items[active]!.scrollIntoView({ block: "nearest" });
  }

  /**
   * The section of the page where the words weigh most (a template card, a glossary term, a heading),
   * so the result opens at the thing found; the page itself when no section with an anchor has them.
   */
  function bestSection(result: ResultData): ResultData | SubResult {
    let best: SubResult | undefined;
    let bestWeight = 0;
    for (const sub of result.sub_results ?? []) {
      if (!sub.url.includes("#") || sub.title === result.meta.title) continue;
      const weight = (sub.weighted_locations ?? []).reduce((sum, location) => sum + location.weight, 0);
      if (weight > bestWeight) [best, bestWeight] = [sub, weight];
    }
    return best ?? result;
  }

  /** Pagefind's sub-result excerpt starts with its heading's words: drop them, the title line shows them. */
  function withoutHeading(excerpt: string, heading: string): string {
    const plain = (text: string) =>
      text
        .replace(/<\/?mark>/g, "")
        .replace(/\s+/g, " ")
        .trim();
    const words = plain(heading).split(" ");
    const parts = excerpt.split(/(\s+)/);
    let index = 0;
    let matched = 0;
    while (index < parts.length && matched < words.length) {
      if (/^\s*$/.test(parts[index]!)) {
        index += 1;
        continue;
      }
      // Pagefind ends each block with a full stop ("Lean Canvas. Etapa: …").
      const word = matched === words.length - 1 ? plain(parts[index]!).replace(/[.:]$/, "") : plain(parts[index]!);
      if (word !== words[matched]) return excerpt;
      matched += 1;
      index += 1;
    }
    return matched === words.length && index < parts.length ? parts.slice(index).join("").trim() : excerpt;
  }

  function render(results: ResultData[]) {
    if (!list || !status) return;
    list.replaceChildren();
    active = -1;
    input?.removeAttribute("aria-activedescendant");
    input?.setAttribute("aria-expanded", String(results.length > 0));
    status.textContent = results.length ? `${results.length} resultado(s)` : "Nenhum resultado encontrado";
    for (const [index, result] of results.entries()) {
      const target = bestSection(result);
      const item = document.createElement("li");
      item.setAttribute("role", "presentation");
      const link = document.createElement("a");
      link.href = target.url;
      link.id = `resultado-busca-${index}`;
      link.tabIndex = -1;
      link.setAttribute("role", "option");
      link.setAttribute("aria-selected", "false");
      link.className =
        "block rounded-lg px-3 py-2 hover:bg-slate-100 aria-selected:bg-slate-100 dark:hover:bg-slate-800 dark:aria-selected:bg-slate-800";
      const title = document.createElement("span");
      title.className = "block font-semibold";
      title.textContent =
        "title" in target && target.title ? `${result.meta.title ?? ""} › ${target.title}` : (result.meta.title ?? result.url);
      const excerpt = document.createElement("span");
      excerpt.className = "block text-sm break-words text-slate-600 dark:text-slate-300 [&_mark]:bg-yellow-200 [&_mark]:text-slate-900";
      // Pagefind's excerpt is escaped text with <mark> around the hits.
      excerpt.innerHTML = "title" in target && target.title ? withoutHeading(target.excerpt, target.title) : target.excerpt;
      link.append(title, excerpt);
      link.addEventListener("click", () => reporter.opened(index + 1));
      item.append(link);
      list.append(item);
    }
  }

  /** A line with buttons that search for a word: "Você quis dizer …?" and the nearest terms. */
  function showHint(lead: string, terms: string[], tail: string) {
    if (!hint) return;
    hint.replaceChildren();
    if (!terms.length) return;
    hint.append(lead);
    for (const [index, term] of terms.entries()) {
      if (index > 0) hint.append(", ");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = term;
      button.className =
        "rounded font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300 dark:hover:text-brand-200";
      button.addEventListener("click", () => {
        if (!input) return;
        input.value = term;
        input.focus();
        void run(term, 0);
      });
      hint.append(button);
    }
    hint.append(tail);
  }

  function done(query: string) {
    list?.setAttribute("data-consulta", query);
  }

  async function run(query: string, wait = 150) {
    if (!status) return;
    const ticket = ++latest;
    clearTimeout(pending);
    list?.removeAttribute("data-consulta");
    if (!query.trim()) {
      list?.replaceChildren();
      hint?.replaceChildren();
      input?.removeAttribute("aria-activedescendant");
      input?.setAttribute("aria-expanded", "false");
      status.textContent = "Digite para buscar nas páginas da metodologia.";
      return;
    }
    status.textContent = "Buscando...";
    if (wait > 0) await new Promise((resolve) => (pending = setTimeout(resolve, wait)));
    if (ticket !== latest) return;
    try {
      const answer = await session.run(query);
      const results = await Promise.all(answer.results.slice(0, 8).map((ranked) => ranked.result.data()));
      if (ticket !== latest) return;
      render(results);
      if (answer.correction) showHint("Você quis dizer ", [answer.correction], "?");
      else if (!results.length) showHint("Termos próximos: ", answer.suggestions, ".");
      else hint?.replaceChildren();
      reporter.searched(query, answer.results.length);
      done(query);
    } catch (error) {
      if (ticket !== latest) return;
      console.log("Busca indisponível", error);
      status.textContent = "A busca está indisponível no momento.";
      hint?.replaceChildren();
      done(query);
    }
  }

  return {
    ready: session.ready,
    run,
    move: (step) => highlight(active + step),
    openActive: () => {
      if (active >= 0) list?.querySelectorAll<HTMLAnchorElement>("a")[active]?.click();
    },
  };
}
