import GithubSlugger from "github-slugger";
import type { SectionRef, VersionChanges } from "./required-page.ts";

/** A part of a page under one Markdown heading (## or ###); the text before the first heading is the opening. */
export interface Section extends SectionRef {
  /** The section's readable text: markup, tags and line wrapping left out, so only a change of words counts. */
  text: string;
}

/** Id given to the text before the first heading (it is linked to the top of the page's content). */
export const OPENING_SECTION_ID = "conteudo";

/** Heading text as the reader sees it: inline Markdown marks dropped. */
function plainHeading(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`~]/g, "")
    .trim();
}

/** The words of a block of MDX: attribute values and text kept, tags, emphasis marks and spacing dropped. */
export function readableText(mdx: string): string {
  return mdx
    .replace(/\{\/\*[\s\S]*?\*\/\}/g, " ")
    .replace(/<\/?[A-Za-z][\w.]*((?:\s+[\w-]+(?:=(?:"[^"]*"|'[^']*'|\{[^}]*\}))?)*)\s*\/?>/g, (_tag, attributes: string) =>
      [...attributes.matchAll(/=(?:"([^"]*)"|'([^']*)'|\{([^}]*)\})/g)].map((match) => ` ${match[1] ?? match[2] ?? match[3]} `).join(""),
    )
    .replace(/^\s{0,3}(?:[-*+]|\d+[.)])\s+/gm, " ")
    .replace(/[*_`~>#|]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Splits an MDX body into its sections. Heading ids follow the build's (github-slugger over every
 * Markdown heading in order), so a link `#id` lands on the built page's heading.
 */
export function splitSections(body: string): Section[] {
  const slugger = new GithubSlugger();
  const sections: Section[] = [];
  let current = { id: OPENING_SECTION_ID, title: "Início da página", lines: [] as string[] };
  let fenced = false;
  const close = () => {
    const text = readableText(current.lines.join("\n"));
    if (text || current.id !== OPENING_SECTION_ID) sections.push({ id: current.id, title: current.title, text });
  };
  for (const line of body.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      const title = plainHeading(heading[2]!);
      const id = slugger.slug(title);
      if (heading[1]!.length === 2 || heading[1]!.length === 3) {
        close();
        current = { id, title, lines: [] };
        continue;
      }
    }
    current.lines.push(line);
  }
  close();
  return sections;
}

/** Sections of `current` whose text differs from `older` (or is new), and titles `older` had that are gone. */
export function compareSections(older: readonly Section[], current: readonly Section[]): VersionChanges {
  const before = new Map(older.map((section) => [section.id, section.text]));
  const now = new Set(current.map((section) => section.id));
  return {
    changed: current.filter((section) => before.get(section.id) !== section.text).map(({ id, title }) => ({ id, title })),
    removed: older.filter((section) => !now.has(section.id)).map((section) => section.title),
  };
}
