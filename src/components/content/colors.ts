/** Tailwind classes per content colour (literal strings, so Tailwind generates them); white on each `solid` is ≥ 4.5:1. */
export const COLORS = {
  blue: {
    solid: "bg-blue-600 text-white",
    soft: "bg-blue-50 text-blue-800 dark:bg-blue-950 dark:text-blue-200",
    border: "border-blue-500",
  },
  green: {
    solid: "bg-green-700 text-white",
    soft: "bg-green-50 text-green-800 dark:bg-green-950 dark:text-green-200",
    border: "border-green-500",
  },
  purple: {
    solid: "bg-purple-600 text-white",
    soft: "bg-purple-50 text-purple-800 dark:bg-purple-950 dark:text-purple-200",
    border: "border-purple-500",
  },
  orange: {
    solid: "bg-orange-700 text-white",
    soft: "bg-orange-50 text-orange-800 dark:bg-orange-950 dark:text-orange-200",
    border: "border-orange-500",
  },
  red: { solid: "bg-red-600 text-white", soft: "bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200", border: "border-red-500" },
  teal: {
    solid: "bg-teal-700 text-white",
    soft: "bg-teal-50 text-teal-800 dark:bg-teal-950 dark:text-teal-200",
    border: "border-teal-500",
  },
  indigo: {
    solid: "bg-indigo-600 text-white",
    soft: "bg-indigo-50 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200",
    border: "border-indigo-500",
  },
  pink: {
    solid: "bg-pink-600 text-white",
    soft: "bg-pink-50 text-pink-800 dark:bg-pink-950 dark:text-pink-200",
    border: "border-pink-500",
  },
  amber: {
    solid: "bg-amber-700 text-white",
    soft: "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
    border: "border-amber-500",
  },
  cyan: {
    solid: "bg-cyan-700 text-white",
    soft: "bg-cyan-50 text-cyan-800 dark:bg-cyan-950 dark:text-cyan-200",
    border: "border-cyan-500",
  },
  emerald: {
    solid: "bg-emerald-700 text-white",
    soft: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
    border: "border-emerald-500",
  },
  slate: {
    solid: "bg-slate-700 text-white",
    soft: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
    border: "border-slate-500",
  },
} as const;

export type ColorName = keyof typeof COLORS;
