/**
 * The reading status in the browser: the header count, the 'Pendências de leitura' lists, and on a
 * required page its 'O que mudou' box and 'Li e entendi'. One GET /api/leitura per page view.
 */
import type { ReadingItem, ReadingStatus } from "./pending.ts";

const dateFormat = new Intl.DateTimeFormat("pt-BR", { dateStyle: "long" });

function showCount(count: number): void {
  for (const link of document.querySelectorAll<HTMLElement>("[data-leitura-contador]")) {
    link.hidden = count === 0;
    const number = link.querySelector("[data-leitura-numero]");
    if (number) number.textContent = String(count);
    link.setAttribute("aria-label", count === 1 ? "1 pendência de leitura" : `${count} pendências de leitura`);
  }
}

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

function fillLists(status: ReadingStatus): void {
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

function showChanges(confirmed: number): void {
  const box = document.querySelector<HTMLElement>("[data-leitura-mudancas]");
  const since = box?.querySelector<HTMLElement>(`[data-desde="${confirmed}"]`);
  if (!box || !since) return;
  box.hidden = false;
  since.hidden = false;
  for (const id of (since.dataset.secoes ?? "").split(" ").filter(Boolean)) {
    document.getElementById(id)?.setAttribute("data-leitura-mudou", "");
  }
}

function setUpConfirmation(status: ReadingStatus): void {
  const panel = document.querySelector<HTMLElement>("[data-leitura-confirmar]");
  const item = panel && status.paginas.find((entry) => entry.pagina === panel.dataset.pagina);
  if (!panel || !item) return;
  const version = Number(panel.dataset.versao);
  const button = panel.querySelector<HTMLButtonElement>("[data-leitura-botao]")!;
  const situation = panel.querySelector<HTMLElement>("[data-leitura-situacao]")!;
  const showConfirmed = (at: number) => {
    button.hidden = true;
    situation.textContent = `Você confirmou a leitura desta versão em ${dateFormat.format(new Date(at))}.`;
  };
  panel.hidden = false;
  if (item.confirmada !== null && item.confirmada >= version) return showConfirmed(item.confirmadaEm!);
  if (item.confirmada !== null) showChanges(item.confirmada);
  button.addEventListener("click", async () => {
    button.disabled = true;
    situation.textContent = "Registrando…";
    try {
      const response = await fetch("/api/leitura/confirmacoes", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pagina: item.pagina, versao: version }),
      });
      const body = (await response.json().catch(() => ({}))) as { confirmadaEm?: number; error?: string };
      if (!response.ok) {
        situation.textContent = body.error ?? "Não foi possível registrar agora. Tente de novo.";
        button.disabled = false;
        return;
      }
      showConfirmed(body.confirmadaEm ?? Date.now());
      item.confirmada = version;
      item.confirmadaEm = body.confirmadaEm ?? Date.now();
      status.pendentes = status.paginas.filter((entry) => (entry.confirmada ?? 0) < entry.versao).length;
      showCount(status.pendentes);
      fillLists(status);
    } catch {
      situation.textContent = "Sem conexão com o portal. Tente de novo.";
      button.disabled = false;
    }
  });
}

/** Runs once per page view, for signed-in people only (the count link is in their header). */
export async function startReading(): Promise<void> {
  if (!document.querySelector("[data-leitura-contador]")) return;
  const response = await fetch("/api/leitura").catch(() => null);
  if (!response?.ok) return;
  const status = (await response.json()) as ReadingStatus;
  showCount(status.pendentes);
  fillLists(status);
  setUpConfirmation(status);
}
