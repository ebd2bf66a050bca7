/** /novidades in the browser: the first page marks what changed since the last visit, 'Carregar mais' pages back. */
import type { NewsItem, NewsPage } from "./news.ts";

const dateFormat = new Intl.DateTimeFormat("pt-BR", { dateStyle: "long" });

function itemOf(item: NewsItem): HTMLLIElement {
  const li = document.createElement("li");
  li.className = "rounded-lg border border-slate-200 p-4 dark:border-slate-700";
  const link = document.createElement("a");
  link.href = item.pagina;
  link.textContent = item.titulo;
  link.className = "font-semibold text-brand-700 underline dark:text-brand-100";
  const when = document.createElement("time");
  when.dateTime = item.data;
  when.textContent = dateFormat.format(new Date(item.data));
  when.className = "ml-2 text-sm text-slate-600 dark:text-slate-300";
  const summary = document.createElement("p");
  summary.textContent = item.resumo;
  summary.className = "mt-1";
  li.append(link, when, summary);
  if (item.secoes?.length) {
    // The sections the change touched, each a link to its heading on the page.
    const sections = document.createElement("p");
    sections.className = "mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm";
    sections.append("Ver: ");
    for (const section of item.secoes) {
      const anchor = document.createElement("a");
      anchor.href = `${item.pagina}#${encodeURIComponent(section.id)}`;
      anchor.textContent = section.titulo;
      anchor.className = "text-brand-700 underline dark:text-brand-100";
      sections.append(anchor);
    }
    li.append(sections);
  }
  return li;
}

export async function startNews(): Promise<void> {
  const root = document.querySelector<HTMLElement>("[data-novidades]");
  if (!root) return;
  const $ = <T extends HTMLElement>(name: string) => root.querySelector<T>(`[data-novidades-${name}]`)!;
  const situation = $("situacao");
  const more = $<HTMLButtonElement>("mais");
  let lastVisit: number | null = null;
  let cursor: string | null = null;

  async function load(first: boolean): Promise<void> {
    more.disabled = true;
    const response = await fetch(first ? "/api/novidades" : `/api/novidades?antes=${encodeURIComponent(cursor!)}`).catch(() => null);
    more.disabled = false;
    if (!response?.ok) {
      situation.textContent = "Não foi possível carregar as novidades agora. Recarregue a página.";
      return;
    }
    const page = (await response.json()) as NewsPage & { ultimaVisita?: number | null };
    if (first) lastVisit = page.ultimaVisita ?? null;
    for (const item of page.itens) {
      const isNew = lastVisit === null || Date.parse(item.data) > lastVisit;
      $(isNew ? "novas" : "antigas").append(itemOf(item));
      $(isNew ? "novas-titulo" : "antigas-titulo").hidden = false;
    }
    cursor = page.proximo;
    more.hidden = cursor === null;
    const total = root!.querySelectorAll("li").length;
    situation.textContent =
      total === 0
        ? "Nenhuma mudança de conteúdo por enquanto."
        : first && !$("novas").children.length
          ? "Nada novo desde sua última visita."
          : "";
  }

  more.addEventListener("click", () => void load(false));
  await load(true);
}
