/** The feedback form in the browser (FeedbackForm.astro): shows the person's vote, records a new one, sends the details. */
import { sendJson } from "../api-client.ts";
import type { OwnVote } from "./feedback.ts";

export async function setUpFeedback(section: HTMLElement): Promise<void> {
  const pagina = section.dataset.opiniaoPagina!;
  const versao = section.dataset.opiniaoVersao!;
  const response = await fetch(`/api/opiniao?${new URLSearchParams({ pagina, versao })}`, { credentials: "same-origin" }).catch(() => null);
  // INSIGHTS=false, signed out, or a page this version no longer is: no form.
  if (!response?.ok) return;
  const own = ((await response.json()) as { voto: OwnVote | null }).voto;
  const buttons = [...section.querySelectorAll<HTMLButtonElement>("[data-opiniao-voto]")];
  const form = section.querySelector<HTMLFormElement>("[data-opiniao-detalhes]")!;
  const reasons = section.querySelector<HTMLElement>("[data-opiniao-motivos]")!;
  const situation = section.querySelector<HTMLElement>("[data-opiniao-situacao]")!;
  let helpful: boolean | null = own?.ajudou ?? null;

  const show = () => {
    for (const button of buttons)
      button.setAttribute("aria-pressed", String(helpful !== null && (button.dataset.opiniaoVoto === "sim") === helpful));
    // The reasons are what was missing: asked after a 'Não'.
    reasons.hidden = helpful !== false;
  };
  section.hidden = false;
  show();
  if (own) situation.textContent = `Você respondeu ${own.ajudou ? "Sim" : "Não"} para esta versão; pode mudar a resposta.`;

  for (const button of buttons) {
    button.addEventListener("click", async () => {
      helpful = button.dataset.opiniaoVoto === "sim";
      show();
      situation.textContent = "Registrando…";
      const answer = await sendJson("/api/opiniao", { pagina, versao, ajudou: helpful });
      if (answer.status !== 200) {
        situation.textContent = answer.body.error ?? "Não foi possível registrar agora. Tente de novo.";
        return;
      }
      situation.textContent = "Obrigado! Se quiser, conte mais abaixo.";
      form.hidden = false;
    });
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (helpful === null) return;
    const data = new FormData(form);
    const motivo = data.get("motivo");
    const comentario = String(data.get("comentario") ?? "");
    const submit = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
    submit.disabled = true;
    const answer = await sendJson("/api/opiniao", {
      pagina,
      versao,
      ajudou: helpful,
      motivo: helpful === false && typeof motivo === "string" ? motivo : null,
      comentario,
      contato: data.get("contato") === "on",
    });
    submit.disabled = false;
    if (answer.status !== 200) {
      situation.textContent = answer.body.error ?? "Não foi possível enviar agora. Tente de novo.";
      return;
    }
    form.reset();
    form.hidden = true;
    situation.textContent = "Obrigado pela resposta!";
  });
}
