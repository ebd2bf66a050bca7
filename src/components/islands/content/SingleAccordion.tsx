import { Accordion } from "radix-ui";
import { ChevronDown } from "lucide-react";

export interface AccordionEntry {
  id: string;
  title: string;
  /** Optional small label beside the title. */
  badge?: string;
  /** Paragraphs; a line "Rótulo: texto" shows the label in bold. */
  body: string[];
}

/** One item open at a time; the open one closes on a second click (Radix, keyboard-operable). */
export default function SingleAccordion({ items, label }: { items: AccordionEntry[]; label: string }) {
  return (
    <Accordion.Root
      type="single"
      collapsible
      aria-label={label}
      className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700"
    >
      {items.map((item) => (
        <Accordion.Item key={item.id} value={item.id}>
          <Accordion.Header>
            <Accordion.Trigger className="group flex w-full items-center justify-between gap-3 px-4 py-3 text-left font-semibold hover:bg-slate-50 dark:hover:bg-slate-800">
              <span>
                {item.title}
                {item.badge && (
                  <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium dark:bg-slate-800">{item.badge}</span>
                )}
              </span>
              <ChevronDown className="size-4 shrink-0 transition group-data-[state=open]:rotate-180" aria-hidden="true" />
            </Accordion.Trigger>
          </Accordion.Header>
          <Accordion.Content className="space-y-2 px-4 pb-4 text-sm text-slate-700 dark:text-slate-300">
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
          </Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
