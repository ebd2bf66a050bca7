/** One entry of a page's 'Nesta página' list. */
export interface TocEntry {
  level: 2 | 3;
  /** The anchor the entry and the heading's link point to. */
  anchor: string;
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", nbsp: " " };

/** The text of a heading's rendered HTML: tags dropped, the entities Astro escapes decoded, spaces collapsed. */
export function headingText(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, " ")
    .trim();
}

const HEADING = /<h([23])(\s[^>]*)?>([\s\S]*?)<\/h\1>/g;
const TOC_ATTRIBUTE = /\sdata-toc="([^"]+)"/;

/** The headings a page marks for its contents list (`data-toc="<anchor>"`, see AnchorHeading), in page order. */
export function tocEntries(html: string): TocEntry[] {
  const entries: TocEntry[] = [];
  for (const [, level, attributes = "", inner] of html.matchAll(HEADING)) {
    const anchor = TOC_ATTRIBUTE.exec(attributes)?.[1];
    if (anchor) entries.push({ level: level === "2" ? 2 : 3, anchor, text: headingText(inner!) });
  }
  return entries;
}

/** Pages list their contents from this many headings on; MDX pages (`always`) from the first. */
export const TOC_MIN_HEADINGS = 3;

export function showsToc(entries: readonly TocEntry[], mode: "auto" | "always" | "never"): boolean {
  if (mode === "never") return false;
  return entries.length >= (mode === "always" ? 1 : TOC_MIN_HEADINGS);
}
