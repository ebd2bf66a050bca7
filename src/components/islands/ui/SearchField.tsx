import { useRef } from "react";
import { Search, SearchX } from "lucide-react";
import { useTypedBeforeHydration } from "./typed-before-hydration";

/** A search input with its icon; live filtering is the caller's. */
export function SearchField({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(input, value, onChange);
  return (
    <div className="relative flex-1">
      <Search className="absolute top-2.5 left-3 size-4 text-slate-400" aria-hidden="true" />
      <input
        ref={input}
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-9 focus:border-brand-500 focus:ring-2 focus:ring-focus focus:outline-none dark:border-slate-600 dark:bg-slate-900"
      />
    </div>
  );
}

/** What a filtered list shows when nothing matches. */
export function EmptyState({ title, hint }: { title: string; hint: string }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-10 text-center dark:border-slate-600">
      <SearchX className="mx-auto mb-3 size-10 text-slate-400" aria-hidden="true" />
      <p className="font-semibold">{title}</p>
      <p className="text-sm text-slate-500">{hint}</p>
    </div>
  );
}
