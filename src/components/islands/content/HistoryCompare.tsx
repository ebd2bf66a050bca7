import { useEffect, useId, useMemo, useState } from "react";
import { compareVersions, type Part } from "../../../lib/content/history-compare";
import type { PageHistory } from "../../../lib/content/page-history";

interface Props {
  history: PageHistory;
  /** Versions' dates as the page shows them (formatted at build time in the portal's time zone). */
  labels: Record<string, string>;
}

const SELECT =
  "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 focus:outline-2 focus:outline-brand-600 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100";

function Sentence({ part }: { part: Part }) {
  if (part.kind === "ins")
    return (
      <ins className="rounded bg-green-100 px-0.5 text-green-900 no-underline dark:bg-green-950 dark:text-green-100">
        <span className="sr-only">[incluído: </span>
        {part.text}
        <span className="sr-only">]</span>
      </ins>
    );
  if (part.kind === "del")
    return (
      <del className="rounded bg-red-100 px-0.5 text-red-900 dark:bg-red-950 dark:text-red-100">
        <span className="sr-only">[removido: </span>
        {part.text}
        <span className="sr-only">]</span>
      </del>
    );
  return <span>{part.text}</span>;
}

function VersionSelect(props: {
  label: string;
  value: string;
  ids: string[];
  name: (id: string) => string;
  onChange: (id: string) => void;
}) {
  const id = useId();
  return (
    <label htmlFor={id} className="block font-medium">
      {props.label}
      <select id={id} className={SELECT} value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        {props.ids.map((version) => (
          <option key={version} value={version}>
            {props.name(version)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Sections only one of the two versions has: their title and text, marked as included or removed. */
function SectionList({ title, sections, kind }: { title: string; sections: { title: string; text: string }[]; kind: "ins" | "del" }) {
  if (!sections.length) return null;
  return (
    <section>
      <h3 className="text-lg font-semibold">
        {title} ({sections.length})
      </h3>
      <ul className="mt-2 space-y-3">
        {sections.map((section, index) => (
          <li key={`${section.title}-${index}`} className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
            <h4 className="font-semibold">{section.title}</h4>
            {section.text && (
              <p className="mt-1 break-words">
                <Sentence part={{ kind, text: section.text }} />
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** 'Comparar versões': two version pickers and the readable comparison; `?de=…&para=…` opens a pair. */
export default function HistoryCompare({ history, labels }: Props) {
  const ids = history.versions.map((version) => version.id);
  const [from, setFrom] = useState(ids[1] ?? ids[0] ?? "");
  const [to, setTo] = useState(ids[0] ?? "");
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const de = query.get("de");
    const para = query.get("para");
    if (de && ids.includes(de)) setFrom(de);
    if (para && ids.includes(para)) setTo(para);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once, when the page opens
  }, []);
  const choose = (which: "de" | "para", value: string) => {
    if (which === "de") setFrom(value);
    else setTo(value);
    const query = new URLSearchParams(window.location.search);
    query.set(which, value);
    window.history.replaceState(null, "", `?${query.toString()}#comparar`);
  };
  const comparison = useMemo(() => compareVersions(history, from, to), [history, from, to]);
  const label = (id: string) => labels[id] ?? id;
  if (ids.length < 2) return <p>Esta página tem uma só versão: não há o que comparar.</p>;
  const nothing = comparison && !comparison.added.length && !comparison.removed.length && !comparison.changed.length;
  return (
    <div>
      <div className="grid gap-4 sm:grid-cols-2">
        <VersionSelect label="Versão anterior" value={from} ids={ids} name={label} onChange={(value) => choose("de", value)} />
        <VersionSelect label="Versão mais nova" value={to} ids={ids} name={label} onChange={(value) => choose("para", value)} />
      </div>
      <div role="status" aria-live="polite" className="mt-6 space-y-6" data-comparacao>
        <p className="font-medium">
          Comparando {label(from)} com {label(to)}.
        </p>
        {nothing && <p>As duas versões têm o mesmo texto.</p>}
        {comparison?.changed.length ? (
          <section>
            <h3 className="text-lg font-semibold">Seções alteradas ({comparison.changed.length})</h3>
            <ul className="mt-2 space-y-4">
              {comparison.changed.map((section, index) => (
                <li key={`${section.title}-${index}`} className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
                  <h4 className="font-semibold">{section.title}</h4>
                  <p className="mt-1 break-words">
                    {section.parts.map((part, at) => (
                      <Sentence key={at} part={part} />
                    ))}
                  </p>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <SectionList title="Seções novas" sections={comparison?.added ?? []} kind="ins" />
        <SectionList title="Seções removidas" sections={comparison?.removed ?? []} kind="del" />
      </div>
    </div>
  );
}
