import { ChevronDown } from "lucide-react";

export interface AccordionEntry {
  id: string;
  title: string;
  /** Optional small label beside the title. */
  badge?: string;
  /** Paragraphs; a line "Rótulo: texto" shows the label in bold. */
  body: string[];
}

/**
 * One item open at a time, the open one closing on a second click: native `<details name>` (exclusive
 * accordion), so it works with no JavaScript at all. Astro pages render it statically; FaqSearch
 * renders it inside its island. `name` groups the items (unique per accordion on the page).
 */
export default function SingleAccordion({ items, label, name }: { items: AccordionEntry[]; label: string; name: string }) {
  return (
    <div
      role="group"
      aria-label={label}
      className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700"
    >
      {items.map((item) => (
        <details key={item.id} name={name} className="group">
          <summary className="flex w-full cursor-pointer list-none items-center justify-between gap-3 px-4 py-3 text-left font-semibold hover:bg-slate-50 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden">
            <span>
              {item.title}
              {item.badge && (
                <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium dark:bg-slate-800">{item.badge}</span>
              )}
            </span>
            <ChevronDown className="size-4 shrink-0 transition group-open:rotate-180" aria-hidden="true" />
          </summary>
          <div className="space-y-2 px-4 pb-4 text-sm text-slate-700 dark:text-slate-300">
            {item.body.map((line) => {
              const match = /^([^:]{2,30}): (.+)$/.exec(line);
              return (
                <p key={line}>
                  {match ? (
                    <>
                      <strong>{match[1]}:</strong> {match[2]}
                    </>
                  ) : (
                    line
                  )}
                </p>
              );
            })}
          </div>
        </details>
      ))}
    </div>
  );
}
