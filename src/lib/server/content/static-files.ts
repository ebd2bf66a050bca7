/**
 * Content served by the gate: prerendered pages held in memory and precompressed, with their
 * per-visitor blocks (this file), the access-aware search bundles (search-files.ts) and the
 * 'Atualizado em' dates read from git (last-updated.ts).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { listFiles } from "../platform/files.ts";
import { compileTemplate, renderTemplate, withoutClosedLinks, type Segment } from "../../content/personalize.ts";
import { accessSignature, type Principal } from "../../routes.ts";

/** A response body held in memory with its precompressed forms. */
export interface Body {
  raw: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  etag: string;
}

export interface Asset extends Body {
  type: string;
  /** Hashed build output: cache for a year. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".wasm": "application/wasm",
  ".pdf": "application/pdf",
  ".html": "text/html; charset=utf-8",
};

const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".svg", ".json", ".txt", ".xml", ".html", ".wasm"]);

export function contentType(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
}

export function etagOf(buffer: Buffer): string {
  return `"${createHash("sha1").update(buffer).digest("base64url").slice(0, 22)}"`;
}

/**
 * The one compressor, for the build (public assets, written once: brotli's best quality) and the
 * runtime (page variants and search files, made while serving: a faster brotli level).
 */
export function compress(raw: Buffer, when: "build" | "runtime"): { br: Buffer; gzip: Buffer } {
  const quality = when === "build" ? 11 : 9;
  return {
    br: zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } }),
    gzip: zlib.gzipSync(raw, { level: 9 }),
  };
}

/** Below this size compression costs more than it saves. */
export const MIN_COMPRESSIBLE_BYTES = 256;

/** Compresses once; kept only when it actually saves bytes. */
export function compressBody(raw: Buffer, compressible = true): Body {
  const body: Body = { raw, etag: etagOf(raw) };
  if (!compressible || raw.length < MIN_COMPRESSIBLE_BYTES) return body;
  const { br, gzip } = compress(raw, "runtime");
  if (br.length < raw.length) body.br = br;
  if (gzip.length < raw.length) body.gzip = gzip;
  return body;
}

/** Public files (`dist/client`), read once at start, keyed by URL path. HTML is never public. */
export function loadAssets(clientDir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const file of listFiles(clientDir)) {
    const ext = path.extname(file).toLowerCase();
    if (ext === ".html" || ext === ".br" || ext === ".gz") continue;
    const urlPath = "/" + path.relative(clientDir, file).split(path.sep).join("/");
    const raw = fs.readFileSync(file);
    const body: Body = { raw, etag: etagOf(raw) };
    // Precompressed siblings are written by scripts/build-server.ts.
    if (fs.existsSync(file + ".br")) body.br = fs.readFileSync(file + ".br");
    if (fs.existsSync(file + ".gz")) body.gzip = fs.readFileSync(file + ".gz");
    if (!body.br && COMPRESSIBLE.has(ext)) Object.assign(body, compressBody(raw), { etag: body.etag });
    assets.set(urlPath, { ...body, type: contentType(file), immutable: urlPath.startsWith("/_astro/") });
  }
  return assets;
}

const CSP_META = /<meta\s+http-equiv="content-security-policy"\s+content="([^"]*)"/i;

/** A prerendered page: compiled once, rendered once per access signature and kept compressed. */
export class PageTemplate {
  readonly segments: Segment[];
  /** The policy Astro wrote into the page's <meta> (hashes of its own scripts), or null. */
  readonly csp: string | null;
  private readonly variants = new Map<string, Body>();

  constructor(html: string) {
    this.segments = compileTemplate(html);
    const meta = CSP_META.exec(html)?.[1];
    this.csp = meta ? meta.replaceAll("&#39;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&").trim() : null;
  }

  /** How many rendered variants are held (reported as a metric). */
  get variantCount(): number {
    return this.variants.size;
  }

  body(principal: Principal | null): Body {
    const key = accessSignature(principal);
    let body = this.variants.get(key);
    if (!body) {
      body = compressBody(Buffer.from(withoutClosedLinks(renderTemplate(this.segments, principal), principal)));
      if (this.variants.size >= 1000) this.variants.clear();
      this.variants.set(key, body);
    }
    return body;
  }
}

/** Prerendered pages (`dist/pages`), keyed by route path (`/templates`, `/`); `prepare` adapts each page to the deployment once. */
export function loadPages(pagesDir: string, prepare: (html: string) => string = (html) => html): Map<string, PageTemplate> {
  const pages = new Map<string, PageTemplate>();
  for (const file of listFiles(pagesDir)) {
    if (!file.endsWith(".html")) continue;
    const rel = path.relative(pagesDir, file).split(path.sep).join("/");
    const route = rel === "index.html" ? "/" : "/" + rel.replace(/\/index\.html$/, "").replace(/\.html$/, "");
    pages.set(route, new PageTemplate(prepare(fs.readFileSync(file, "utf8"))));
  }
  return pages;
}
