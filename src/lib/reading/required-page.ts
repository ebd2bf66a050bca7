import type { SystemRole } from "../routes.ts";

/** A page marked as required reading, as content:check finds it in the working copy. */
export interface RequiredPageSource {
  /** Route path, e.g. /sobre-b1. */
  path: string;
  /** Page title (lists, e-mails, the report). */
  title: string;
  /** File whose git history holds the page's versions (the MDX page, or content/leitura-obrigatoria.yaml). */
  file: string;
  /** Where the fields live: the page's frontmatter, or an entry of the YAML list. */
  kind: "mdx" | "yaml";
  version: number;
  summary: string;
  /** Only these system roles must confirm; absent: everyone who may open the page. */
  roles?: readonly SystemRole[];
}

/** One version of a required page, from git history (the current one from the working copy). */
export interface ReadingVersion {
  version: number;
  summary: string;
  /** When the version first appeared (ISO 8601). */
  date: string;
  /** The commit that introduced it (absent while it is only in the working copy). */
  commit?: string;
}

/** A section of the page (a Markdown heading), linked by its heading id. */
export interface SectionRef {
  id: string;
  title: string;
}

/** What changed between an older version and the current one, computed at build time. */
export interface VersionChanges {
  /** Current sections whose built text differs from (or did not exist in) the older version. */
  changed: SectionRef[];
  /** Titles of sections the older version had and the current one does not. */
  removed: string[];
}

/** A required page as the build publishes it (dist/reading.json). */
export interface RequiredPage extends RequiredPageSource {
  /** Every version, oldest first; the last is the current one. */
  versions: ReadingVersion[];
  /** Per older version number: what changed since it. */
  changesSince: Record<string, VersionChanges>;
}

export interface ReadingManifest {
  /** Changes with every build: cached reading state of another build is never reused. */
  buildId: string;
  pages: RequiredPage[];
}

export const READING_MANIFEST_FILE = "reading.json";
