/**
 * Tabs are react-tabs (WAI-ARIA tabs: arrow keys, Home/End, automatic activation): ~4 KB gzip where Radix
 * Tabs costs ~10 KB, which pages with React (~69 KB) cannot afford under the 80 KB budget.
 */
export const TAB_LIST = "inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800";
export const TAB =
  "cursor-pointer rounded-md px-4 py-2 text-sm font-semibold text-slate-600 focus-visible:outline-2 focus-visible:outline-brand-500 aria-selected:bg-white aria-selected:text-slate-900 aria-selected:shadow dark:text-slate-300 dark:aria-selected:bg-slate-700 dark:aria-selected:text-white";
