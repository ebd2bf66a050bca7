/**
 * The reading status in the browser. Each part loads only where it shows: the header count on every
 * signed-in page (this file), the lists with PendingList.astro (status-view.ts), 'O que mudou' and
 * 'Li e entendi' on required pages only (confirm-client.ts). Each asks GET /api/leitura, which the
 * server answers from memory.
 */
import type { ReadingStatus } from "./pending.ts";

/** The signed-in person's status, or null (signed out, or the portal did not answer). */
export async function fetchReadingStatus(): Promise<ReadingStatus | null> {
  if (!document.querySelector("[data-leitura-contador]")) return null;
  const response = await fetch("/api/leitura").catch(() => null);
  return response?.ok ? ((await response.json()) as ReadingStatus) : null;
}

export function showCount(count: number): void {
  for (const link of document.querySelectorAll<HTMLElement>("[data-leitura-contador]")) {
    link.hidden = count === 0;
    link.querySelector("[data-leitura-numero]")!.textContent = String(count);
    link.setAttribute("aria-label", count === 1 ? "1 pendência de leitura" : `${count} pendências de leitura`);
  }
}
