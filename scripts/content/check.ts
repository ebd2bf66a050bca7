/**
 * Checks every content file the way the build uses it and reports `arquivo:linha: mensagem`
 * in Portuguese: YAML files against their schemas, MDX pages' frontmatter, the components and
 * internal links in MDX bodies. Returns the content pages for the route manifest.
 * A little over 200 lines: one pass per file kind, sharing the position-to-line mapping and the report.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "astro/zod";
import { parseDocument, LineCounter } from "yaml";
import { normalizePhrase } from "../../src/lib/search/query.ts";
import { MDX_FOLDERS, YAML_FILES } from "../../src/collections/yaml-files.ts";
import type { ContentPageEntry } from "../../src/lib/content-manifest.ts";
import type { RequiredPageSource } from "../../src/lib/reading/required-page.ts";
import { API_RULES, STATIC_ROUTES } from "../../src/lib/routes.ts";
import { contentPageSchema } from "../../src/schemas/content-page.ts";
import { guideSchema } from "../../src/schemas/guide.ts";
import { playbookSchema } from "../../src/schemas/playbook.ts";
import type { ReadingFields } from "../../src/schemas/reading.ts";
import { describeYamlError, lineOfPath, splitFrontmatter } from "./frontmatter.ts";
import type { Problem } from "./problem.ts";
import { checkBodies, type MdxFile } from "./mdx-body.ts";
import { DownloadCollector, walkLinks, type MissingLink } from "./downloads.ts";
import { isDownloadFileName, type DownloadEntry } from "../../src/lib/content/downloads.ts";

z.config(z.locales.pt());

export type { Problem } from "./problem.ts";
export { formatProblem } from "./problem.ts";

export const PAGES_DIR = "content/paginas";
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function issueMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join(".");
  const message =
    issue.code === "invalid_type" && /undefined/.test(issue.message)
      ? "campo obrigatório ausente"
      : issue.code === "unrecognized_keys"
        ? `campo desconhecido: ${issue.keys.join(", ")}`
        : issue.message;
  return field ? `campo "${field}": ${message}` : message;
}

function issuePath(issue: z.core.$ZodIssue): PropertyKey[] {
  return issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]!] : issue.path;
}

/** What one pass over the content gathers besides the pages. */
interface Gathered {
  problems: Problem[];
  downloads: DownloadCollector;
  missing: MissingLink[];
}

/** What checking one YAML file finds; depends only on its text, so it is kept until the text changes. */
interface YamlResult {
  problems: Problem[];
  missing: MissingLink[];
  offers: { name: string; line: number }[];
  /** The parsed data (undefined when the YAML is broken). */
  data: unknown;
}

function checkYamlText(file: string, text: string, schema: z.ZodType, offersFiles: boolean): YamlResult {
  const found: YamlResult = { problems: [], missing: [], offers: [], data: undefined };
  const { problems } = found;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length) {
    for (const error of doc.errors) {
      const { line, message } = describeYamlError(text, error, lineCounter);
      problems.push({ file, line, message: `YAML inválido — ${message}` });
    }
    return found;
  }
  const data: unknown = (found.data = doc.toJS());
  walkLinks(file, doc, lineCounter, data, {
    // A malformed name is the schema's problem (reported below with the field); the rest is checked by the collector.
    offer: (name, line) => {
      if (!offersFiles) problems.push({ file, line, message: 'campo "file": este arquivo de conteúdo não oferece downloads; use link' });
      else if (isDownloadFileName(name)) found.offers.push({ name, line });
    },
    missing: (item) => found.missing.push(item),
    problem: (problem) => problems.push(problem),
  });
  const items: [PropertyKey[], unknown][] = Array.isArray(data)
    ? data.map((item, index) => [[index], { ...(item as object), position: index }])
    : [[[], data]];
  const seen = new Set<string>();
  for (const [prefix, item] of items) {
    if (Array.isArray(data)) {
      const id = (item as { id?: unknown }).id;
      const line = lineOfPath(doc, lineCounter, prefix);
      if (typeof id !== "string" || !id) problems.push({ file, line, message: `o item ${Number(prefix[0]) + 1} não tem o campo "id"` });
      else if (seen.has(id)) problems.push({ file, line, message: `id duplicado "${id}"` });
      else seen.add(id);
    }
    const result = schema.safeParse(item);
    if (result.success) continue;
    for (const issue of result.error.issues) {
      problems.push({ file, line: lineOfPath(doc, lineCounter, [...prefix, ...issuePath(issue)]), message: issueMessage(issue) });
    }
  }
  if (file === YAML_FILES.searchSynonyms.file && Array.isArray(data)) {
    // A term in two entries would search both entries' words: the editor means one of them.
    const owner = new Map<string, string>();
    for (const [index, item] of data.entries()) {
      const { id, termos } = (item ?? {}) as { id?: unknown; termos?: unknown };
      if (!Array.isArray(termos)) continue;
      for (const [at, term] of termos.entries()) {
        if (typeof term !== "string") continue;
        const norm = normalizePhrase(term);
        const first = owner.get(norm);
        if (first !== undefined)
          problems.push({
            file,
            line: lineOfPath(doc, lineCounter, [index, "termos", at]),
            message: `termo "${term}" repetido: já está na entrada "${first}"`,
          });
        else owner.set(norm, String(id));
      }
    }
  }
  return found;
}

/** Results by file, reused while the text is the same: `astro dev` checks on every save, and parsing dominates. */
const yamlResults = new Map<string, { text: string; result: YamlResult }>();

/** Checks every YAML file; returns the parsed data by file (for the checks that read another file's items). */
function checkYamlFiles(root: string, { problems, downloads, missing }: Gathered): Map<string, unknown> {
  const parsed = new Map<string, unknown>();
  for (const entry of Object.values(YAML_FILES)) {
    const { file, schema } = entry;
    const pages: readonly string[] | undefined = "pages" in entry ? entry.pages : undefined;
    const full = path.join(root, file);
    if (!fs.existsSync(full)) {
      problems.push({ file, line: 1, message: "arquivo não encontrado" });
      continue;
    }
    const text = fs.readFileSync(full, "utf8");
    const key = `${root}\0${file}`;
    let result = yamlResults.get(key)?.text === text ? yamlResults.get(key)!.result : undefined;
    if (!result) {
      result = checkYamlText(file, text, schema, pages !== undefined);
      yamlResults.set(key, { text, result });
    }
    problems.push(...result.problems);
    missing.push(...result.missing);
    for (const { name, line } of result.offers) downloads.offer(name, { file, line }, pages!);
    parsed.set(file, result.data);
  }
  return parsed;
}

/** Validates the frontmatter of every MDX file of a folder; returns the valid ones by file name. */
function checkMdxFolder<S extends z.ZodType>(
  root: string,
  dir: string,
  schema: S,
  problems: Problem[],
  bodies: MdxFile[],
  pageOf: (id: string) => string,
  frontmatterOptional = false,
): { id: string; file: string; data: z.infer<S> }[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  const valid: { id: string; file: string; data: z.infer<S> }[] = [];
  for (const name of fs.readdirSync(full).sort()) {
    const file = `${dir}/${name}`;
    if (name.toLowerCase() === "readme.md") continue;
    if (!name.endsWith(".mdx")) {
      problems.push({ file, line: 1, message: "use a extensão .mdx (ou README.md para notas)" });
      continue;
    }
    const split = splitFrontmatter(fs.readFileSync(path.join(full, name), "utf8"));
    bodies.push({ file, body: split.body, bodyStartLine: split.bodyStartLine, page: pageOf(name.slice(0, -".mdx".length)) });
    if (!split.doc) {
      if (!frontmatterOptional) {
        problems.push({ file, line: 1, message: "falta o cabeçalho (frontmatter) entre linhas ---" });
        continue;
      }
      const result = schema.safeParse({});
      if (result.success) valid.push({ id: name.slice(0, -".mdx".length), file, data: result.data });
      continue;
    }
    const doc = split.doc;
    const at = (yamlLine: number) => split.yamlStartLine + yamlLine - 1;
    if (doc.errors.length) {
      for (const error of doc.errors) {
        const { line, message } = describeYamlError(split.yaml, error, split.lineCounter);
        problems.push({ file, line: at(line), message: `cabeçalho YAML inválido — ${message}` });
      }
      continue;
    }
    const result = schema.safeParse(doc.toJS() ?? {});
    if (!result.success) {
      for (const issue of result.error.issues) {
        problems.push({ file, line: at(lineOfPath(doc, split.lineCounter, issuePath(issue))), message: issueMessage(issue) });
      }
      continue;
    }
    valid.push({ id: name.slice(0, -".mdx".length), file, data: result.data });
  }
  return valid;
}

function requiredFromFrontmatter(pagePath: string, title: string, file: string, leitura: ReadingFields): RequiredPageSource {
  const { versao, resumo, perfis } = leitura;
  return { path: pagePath, title, file, kind: "mdx", version: versao, summary: resumo, ...(perfis ? { roles: perfis } : {}) };
}

function checkPages(root: string, problems: Problem[], bodies: MdxFile[], required: RequiredPageSource[]): ContentPageEntry[] {
  const staticPaths = new Set(STATIC_ROUTES.map((route) => route.path));
  const reserved = new Set(["api", "pagefind", "guias", "arquivos", "_astro", ...API_RULES.map((rule) => rule.prefix.split("/")[1]!)]);
  const pages: ContentPageEntry[] = [];
  for (const { id: slug, file, data } of checkMdxFolder(root, PAGES_DIR, contentPageSchema, problems, bodies, (slug) => `/${slug}`)) {
    if (!SLUG.test(slug)) {
      problems.push({
        file,
        line: 1,
        message: "nome de arquivo inválido: use letras minúsculas, números e hífens (ex.: minha-pagina.mdx)",
      });
      continue;
    }
    if (staticPaths.has(`/${slug}`) || reserved.has(slug)) {
      problems.push({ file, line: 1, message: `o endereço /${slug} já é usado pelo portal: escolha outro nome de arquivo` });
      continue;
    }
    const { title, description, nav, navLabel, order, access, leitura } = data;
    if (leitura) required.push(requiredFromFrontmatter(`/${slug}`, title, file, leitura));
    pages.push({ slug, path: `/${slug}`, title, description, nav, ...(navLabel ? { navLabel } : {}), order, access, file });
  }
  return pages;
}

export const GUIDES_DIR = "content/guias";

/** Playbook guides written as content/guias/<id>.mdx: signed-in pages at /guias/<id>, titled as their card. */
function checkGuides(root: string, problems: Problem[], bodies: MdxFile[], playbookData: unknown): ContentPageEntry[] {
  const playbook = playbookSchema.safeParse(playbookData);
  const cards = new Map(playbook.success ? playbook.data.guides.map((guide) => [guide.id, guide]) : []);
  const guides: ContentPageEntry[] = [];
  for (const { id, file } of checkMdxFolder(root, GUIDES_DIR, guideSchema, problems, bodies, (id) => `/guias/${id}`, true)) {
    const card = cards.get(id);
    if (!card) {
      problems.push({
        file,
        line: 1,
        message: `guia desconhecido "${id}": o nome do arquivo deve ser o id de um guia em ${YAML_FILES.playbook.file}`,
      });
      continue;
    }
    guides.push({
      slug: `guias/${id}`,
      path: `/guias/${id}`,
      title: card.title,
      description: card.description,
      nav: "none",
      order: 1000,
      access: "signed-in",
      file,
    });
  }
  return guides;
}

export interface ContentCheck {
  pages: ContentPageEntry[];
  /** Pages marked as required reading (frontmatter `leitura` or content/leitura-obrigatoria.yaml). */
  required: RequiredPageSource[];
  problems: Problem[];
  /** Files kept in content/arquivos/ that some page offers, with those pages. */
  downloads: DownloadEntry[];
  /** Actions still without a link or file (they read 'Em breve'), in file order. */
  missing: MissingLink[];
}

/** The page /sobre-b1 reads its text from this MDX file (its `leitura` lives there). */
const ABOUT_FILE = "content/sobre/sobre-b1.mdx";

/**
 * Required-reading declarations for pages made in YAML or code: the address must be a page of the
 * portal that needs sign-in and has no MDX file of its own (those use the frontmatter field).
 */
function checkReadingDeclarations(root: string, mdxPaths: ReadonlySet<string>, problems: Problem[]): RequiredPageSource[] {
  const file = YAML_FILES.reading.file;
  const full = path.join(root, file);
  if (!fs.existsSync(full)) return [];
  const lineCounter = new LineCounter();
  const doc = parseDocument(fs.readFileSync(full, "utf8"), { lineCounter, prettyErrors: false });
  const data: unknown = doc.errors.length ? null : doc.toJS();
  if (!Array.isArray(data)) return [];
  const declared: RequiredPageSource[] = [];
  const seen = new Set<string>();
  data.forEach((item: unknown, index) => {
    const result = YAML_FILES.reading.schema.safeParse({ ...(item as object), position: index });
    if (!result.success) return; // reported by checkYamlFiles
    const { pagina, versao, resumo, perfis } = result.data;
    const line = lineOfPath(doc, lineCounter, [index, "pagina"]);
    const route = STATIC_ROUTES.find((candidate) => candidate.path === pagina);
    if (mdxPaths.has(pagina)) {
      problems.push({ file, line, message: `a página ${pagina} é escrita em MDX: use o campo "leitura" no cabeçalho do arquivo dela` });
    } else if (!route) {
      problems.push({ file, line, message: `${pagina} não é uma página do portal` });
    } else if (route.access.kind === "public") {
      problems.push({ file, line, message: `${pagina} é pública: só páginas que pedem login podem ser leitura obrigatória` });
    } else if (seen.has(pagina)) {
      problems.push({ file, line, message: `a página ${pagina} já aparece nesta lista` });
    } else {
      seen.add(pagina);
      declared.push({
        path: pagina,
        title: route.name,
        file,
        kind: "yaml",
        version: versao,
        summary: resumo,
        ...(perfis ? { roles: perfis } : {}),
      });
    }
  });
  return declared;
}

export function checkContent(root: string): ContentCheck {
  const problems: Problem[] = [];
  const bodies: MdxFile[] = [];
  const gathered: Gathered = { problems, downloads: new DownloadCollector(root, problems), missing: [] };
  const yaml = checkYamlFiles(root, gathered);
  const required: RequiredPageSource[] = [];
  for (const { dir, schema, page } of Object.values(MDX_FOLDERS)) {
    for (const { file, data } of checkMdxFolder(root, dir, schema, problems, bodies, () => page)) {
      const leitura = (data as { leitura?: ReadingFields }).leitura;
      if (file === ABOUT_FILE && leitura) required.push(requiredFromFrontmatter("/sobre-b1", "Sobre a B1", file, leitura));
    }
  }
  const pages = [
    ...checkPages(root, problems, bodies, required),
    ...checkGuides(root, problems, bodies, yaml.get(YAML_FILES.playbook.file)),
  ];
  const knownPaths = new Set([...STATIC_ROUTES.map((route) => route.path), ...pages.map((page) => page.path)]);
  // Bodies of MDX files that did not become a page (a bad frontmatter) offer nothing: their problem is reported already.
  const published = new Set([...STATIC_ROUTES.map((route) => route.path), ...pages.map((page) => page.path)]);
  checkBodies(bodies, knownPaths, problems, {
    offer: (name, where, page) => {
      if (published.has(page)) gathered.downloads.offer(name, where, [page]);
    },
    missing: (item) => gathered.missing.push(item),
  });
  required.push(...checkReadingDeclarations(root, new Set([...pages.map((page) => page.path), "/sobre-b1"]), problems));
  return { pages, required, problems, downloads: gathered.downloads.entries(), missing: gathered.missing };
}
