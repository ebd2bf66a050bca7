/** Tailwind class strings shared by the admin islands (no imports: the audit page pulls only these). */
export const buttonClass = "inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold disabled:opacity-60";
export const primaryButton = `${buttonClass} bg-brand-600 text-white hover:bg-brand-700`;
export const ghostButton = `${buttonClass} border border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800`;
export const inputClass =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-500 focus:ring-2 focus:ring-focus focus:outline-none disabled:bg-slate-100 disabled:text-slate-500 dark:border-slate-600 dark:bg-slate-900 dark:disabled:bg-slate-800";
