import { Download } from "lucide-react";
import { SoonBadge } from "../ui/SoonBadge";
import { DOWNLOADS_URL_PREFIX } from "../../../lib/content/downloads";
import { CLOSED_LINK } from "../../../lib/content/closed-link";

/**
 * Download/open action inside islands; an empty link logs instead. A link to a page the reader may
 * not open reaches the island as CLOSED_LINK (the gate rewrote the prop, personalize.ts) and is
 * rendered as the plain text the gate made of the server's anchor, so nothing leads there.
 */
export function LinkAction({ name, link, label = "Baixar" }: { name: string; link: string; label?: string }) {
  const base = "inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium";
  if (link === CLOSED_LINK) {
    return (
      <span>
        <Download className="size-4" aria-hidden="true" />
        {label}
      </span>
    );
  }
  if (!link) {
    return (
      <button
        type="button"
        aria-disabled="true"
        onClick={() => console.log(`Link não encontrado para: ${name}`)}
        className={`${base} cursor-not-allowed bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300`}
      >
        <Download className="size-4" aria-hidden="true" />
        {label} <SoonBadge />
      </button>
    );
  }
  const internal = link.startsWith("/");
  const file = link.startsWith(DOWNLOADS_URL_PREFIX);
  return (
    <a
      href={link}
      data-pagefind-ignore
      className={`${base} bg-brand-600 text-white hover:bg-brand-700`}
      {...(file ? { download: true } : internal ? {} : { target: "_blank", rel: "noopener noreferrer" })}
    >
      <Download className="size-4" aria-hidden="true" />
      {label}
    </a>
  );
}
