/** The 'Pendências de leitura' lists, drawn from a reading status. */
import type { ReadingItem, ReadingStatus } from "./pending.ts";

const dateFormat = new Intl.DateTimeFormat("pt-BR", { dateStyle: "long" });

function itemLink(item: ReadingItem, pending: boolean): HTMLLIElement {
  const li = document.createElement("li");
  const link = document.createElement("a");
  link.href = item.pagina;
  link.textContent = item.titulo;
  link.className = "font-semibold text-brand-700 underline dark:text-brand-100";
  const note = document.createElement("span");
  note.className = "block text-sm text-slate-600 dark:text-slate-300";
  note.textContent = pending
    ? `Versão ${item.versao}: ${item.resumo}`
    : `Versão ${item.versao} confirmada em ${dateFormat.format(new Date(item.confirmadaEm!))}`;
  li.append(link, note);
  return li;
}

export function fillLists(status: ReadingStatus): void {
  for (const section of document.querySelectorAll<HTMLElement>("[data-leitura-pendencias]")) {
    const all = section.hasAttribute("data-todas");
    const pending = status.paginas.filter((item) => (item.confirmada ?? 0) < item.versao);
    const done = status.paginas.filter((item) => (item.confirmada ?? 0) >= item.versao);
    section.querySelector("[data-leitura-lista]")?.replaceChildren(...pending.map((item) => itemLink(item, true)));
    const empty = section.querySelector<HTMLElement>("[data-leitura-vazio]");
    if (empty) empty.hidden = pending.length > 0;
    section.querySelector("[data-leitura-feitas]")?.replaceChildren(...done.map((item) => itemLink(item, false)));
    const doneTitle = section.querySelector<HTMLElement>("[data-leitura-feitas-titulo]");
    if (doneTitle) doneTitle.hidden = done.length === 0;
    section.hidden = !all && pending.length === 0;
  }
}
