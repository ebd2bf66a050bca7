/** The visible reason beside an action whose address editors have not filled in yet (also rendered by .astro pages, without JS). */
export function SoonBadge() {
  return (
    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-50">
      Em breve
    </span>
  );
}
