/** A required page in the browser: its 'O que mudou' box and 'Li e entendi' (see client.ts). */
import { showCount } from "./client.ts";
import type { ReadingStatus } from "./pending.ts";

const dateFormat = new Intl.DateTimeFormat("pt-BR", { dateStyle: "long" });

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

/** 'Li e entendi' for the people who must read this page, and what changed since the version they confirmed. */
export function setUpConfirmation(panel: HTMLElement, status: ReadingStatus): void {
  const item = status.paginas.find((entry) => entry.pagina === panel.dataset.pagina);
  if (!item) return;
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
    } catch {
      situation.textContent = "Sem conexão com o portal. Tente de novo.";
      button.disabled = false;
    }
  });
}
