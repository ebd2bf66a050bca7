/**
 * Versions of the required-reading pages, read from git at build time: each version's summary and
 * date, and for each older version the sections whose text changed since (compared section by
 * section). The working copy counts as the newest state, so an uncommitted edit builds as it will ship.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import type { ReadingManifest, ReadingVersion, RequiredPage, RequiredPageSource } from "../../src/lib/reading/required-page.ts";
import { compareSections, splitSections, type Section } from "../../src/lib/reading/sections.ts";
import { readingSchema } from "../../src/schemas/reading.ts";
import { splitFrontmatter } from "./frontmatter.ts";
import type { Problem } from "./problem.ts";

interface FileState {
  /** ISO date of the commit (now for the working copy). */
  date: string;
  text: string;
  /** Absent for the working copy. */
  commit?: string;
}

function git(root: string, args: string[]): string | null {
  try {
    return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 });
  } catch {
    return null; // not a git checkout, or the file is not in that commit
  }
}

/** The file's committed states, oldest first. */
function committedStates(root: string, file: string): FileState[] {
  const log = git(root, ["log", "--format=%H %aI", "--", file]);
  if (!log) return [];
  const states: FileState[] = [];
  for (const line of log.trim().split("\n").reverse()) {
    const [commit, date] = line.split(" ");
    if (!commit || !date) continue;
    const text = git(root, ["show", `${commit}:${file}`]);
    if (text !== null) states.push({ date: new Date(date).toISOString(), text, commit });
  }
  return states;
}

interface PageState {
  version: number;
  summary: string;
  sections: Section[];
}

/** The required-reading fields (and sections) of one state of the file, or null when the page was not required then. */
function pageStateOf(page: RequiredPageSource, text: string): PageState | null {
  if (page.kind === "yaml") {
    const list: unknown = (() => {
      try {
        return parse(text);
      } catch {
        return null;
      }
    })();
    const entry = Array.isArray(list) ? list.find((item) => (item as { pagina?: unknown })?.pagina === page.path) : undefined;
    const fields = readingSchema.safeParse(
      entry ? { versao: entry.versao, resumo: entry.resumo, ...(entry.perfis ? { perfis: entry.perfis } : {}) } : null,
    );
    return fields.success ? { version: fields.data.versao, summary: fields.data.resumo, sections: [] } : null;
  }
  const split = splitFrontmatter(text);
  const fields = readingSchema.safeParse((split.doc?.toJS() as { leitura?: unknown } | null)?.leitura);
  return fields.success ? { version: fields.data.versao, summary: fields.data.resumo, sections: splitSections(split.body) } : null;
}

/** One page's versions and what changed since each; a version lower than the last commit's is a problem. */
function historyOf(root: string, page: RequiredPageSource, problems: Problem[]): RequiredPage {
  const committed = committedStates(root, page.file);
  const working = fs.readFileSync(path.join(root, page.file), "utf8");
  const states = [...committed];
  if (committed.at(-1)?.text !== working) states.push({ date: new Date().toISOString(), text: working });
  const versions: ReadingVersion[] = [];
  const textOf = new Map<number, Section[]>();
  let lastCommitted: number | null = null;
  for (const [index, state] of states.entries()) {
    const parsed = pageStateOf(page, state.text);
    if (!parsed) continue;
    if (index < committed.length) lastCommitted = parsed.version;
    const known = versions.find((entry) => entry.version === parsed.version);
    if (known) known.summary = parsed.summary;
    else
      versions.push({
        version: parsed.version,
        summary: parsed.summary,
        date: state.date,
        ...(state.commit ? { commit: state.commit } : {}),
      });
    textOf.set(parsed.version, parsed.sections);
  }
  if (lastCommitted !== null && page.version < lastCommitted) {
    problems.push({
      file: page.file,
      line: 1,
      message: `a versão de leitura de ${page.path} não pode diminuir: o último commit tem versao ${lastCommitted}`,
    });
  }
  const current = textOf.get(page.version) ?? [];
  const older = versions.filter((entry) => entry.version < page.version).sort((a, b) => a.version - b.version);
  return {
    ...page,
    versions: [...older, versions.find((entry) => entry.version === page.version)!],
    changesSince: Object.fromEntries(
      older.map((entry) => [String(entry.version), compareSections(textOf.get(entry.version) ?? [], current)]),
    ),
  };
}

/** The manifest the build publishes (dist/reading.json) and the problems found in the history. */
export function readingHistory(root: string, required: readonly RequiredPageSource[]): { manifest: ReadingManifest; problems: Problem[] } {
  const problems: Problem[] = [];
  const pages = required.map((page) => historyOf(root, page, problems));
  return { manifest: { buildId: `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`, pages }, problems };
}
