/**
 * What each built page costs a browser: HTML, plus the JS and CSS it loads (scripts, stylesheets,
 * islands and their static imports, inline scripts), raw and gzip. Used by `npm run bench` and by the
 * budget test (tests/unit/budget). Chunks reached only through dynamic import() (dialogs, toasts, PDF)
 * load on demand and are not counted.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { listFiles } from "../../src/lib/server/platform/files.ts";

/** The budgets, gzip bytes: a page without islands, a page with islands. */
export const JS_BUDGET = { static: 10 * 1024, islands: 80 * 1024 } as const;

export interface PageWeight {
  route: string;
  islands: number;
  htmlRaw: number;
  htmlGzip: number;
  jsRaw: number;
  jsGzip: number;
  cssRaw: number;
  cssGzip: number;
}

/** JS and CSS a page loads: scripts, stylesheets, islands and their static imports. */
export function pageWeights(pagesDir = "dist/pages", clientDir = "dist/client"): PageWeight[] {
  const gz = (buffer: Buffer) => zlib.gzipSync(buffer, { level: 9 }).length;
  const rows: PageWeight[] = [];
  for (const file of listFiles(pagesDir)) {
    if (!file.endsWith(".html")) continue;
    const html = fs.readFileSync(file);
    const text = html.toString();
    const js = new Set<string>();
    const css = new Set<string>();
    for (const m of text.matchAll(/(?:src|component-url|renderer-url|href)="(\/_astro\/[^"]+\.js)"/g)) js.add(m[1]!);
    for (const m of text.matchAll(/href="(\/_astro\/[^"]+\.css)"/g)) css.add(m[1]!);
    const queue = [...js];
    while (queue.length) {
      const url = queue.pop()!;
      const code = fs.readFileSync(path.join(clientDir, url), "utf8");
      for (const m of code.matchAll(/(?:from|import)\s*["'](\.\/[^"']+\.js)["']/g)) {
        const next = path.posix.join(path.posix.dirname(url), m[1]!);
        if (!js.has(next)) {
          js.add(next);
          queue.push(next);
        }
      }
    }
    // Inline scripts count as JS too.
    const inline = [...text.matchAll(/<script(?![^>]*src)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).join("");
    const read = (urls: Set<string>) => Buffer.concat([...urls].map((url) => fs.readFileSync(path.join(clientDir, url))));
    const jsBytes = Buffer.concat([read(js), Buffer.from(inline)]);
    const cssBytes = read(css);
    const route =
      "/" +
      path
        .relative(pagesDir, file)
        .replace(/(^|\/)index\.html$/, "")
        .replace(/\.html$/, "");
    rows.push({
      route,
      islands: (text.match(/<astro-island/g) ?? []).length,
      htmlRaw: html.length,
      htmlGzip: gz(html),
      jsRaw: jsBytes.length,
      jsGzip: jsBytes.length ? gz(jsBytes) : 0,
      cssRaw: cssBytes.length,
      cssGzip: cssBytes.length ? gz(cssBytes) : 0,
    });
  }
  return rows.sort((a, b) => a.route.localeCompare(b.route));
}
