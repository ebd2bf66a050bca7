/** Written by src/pages/500.astro and 503.astro where the request id belongs. */
const MARKER = "<!--b1:request-id-->";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The 500 (or 503) page with the id a person can quote to support, which an admin finds in the log. */
export function errorPageWithRequestId(html: Buffer, requestId: string | undefined): Buffer {
  if (!requestId) return html;
  const note =
    `<p class="mb-6 text-sm text-slate-600 dark:text-slate-300">Se precisar de ajuda, informe este código ao suporte: ` +
    `<code class="font-mono select-all" data-request-id>${escapeHtml(requestId)}</code></p>`;
  const text = html.toString("utf8");
  return Buffer.from(text.includes(MARKER) ? text.replace(MARKER, note) : text + note);
}
