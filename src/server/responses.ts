import type { IncomingMessage, ServerResponse } from "node:http";
import type { Principal } from "../lib/routes.ts";
import type { Asset, Body, PageTemplate } from "../lib/server/content/static-files.ts";
import type { DownloadFile } from "../lib/server/content/download-files.ts";
import { requestIdOf } from "./observability/request-context.ts";
import { FRAME_ANCESTORS, SCRIPT_FILE_CSP } from "./security-headers.ts";

/**
 * A response's headers as writeHead takes them (name, value, name, value…), starting with the
 * `X-Request-Id` slot. Built once per body and kind and reused by every request for it.
 */
type HeaderList = string[];

/** The header lists of one body: per form sent (raw, brotli, gzip), for 200 and for a 304. */
interface Prepared {
  raw: HeaderList;
  br?: HeaderList;
  gzip?: HeaderList;
  notModified?: { raw: HeaderList; br?: HeaderList; gzip?: HeaderList };
}

type Form = "raw" | "br" | "gzip";

const ID_SLOT = ["X-Request-Id", ""];

/**
 * Writes the head. The id goes into the list's slot just before writeHead, which copies every
 * header into the response's head at once: nothing else runs in between, so lists are shared.
 */
function writeHead(res: ServerResponse, status: number, list: HeaderList): void {
  const id = requestIdOf(res);
  if (id === undefined) {
    res.writeHead(status, list.slice(2));
  } else {
    list[1] = id;
    res.writeHead(status, list);
  }
}

function toList(headers: Record<string, string>): HeaderList {
  const list = [...ID_SLOT];
  for (const [name, value] of Object.entries(headers)) list.push(name, value);
  return list;
}

/** The gate's response writers; every one carries `baseHeaders` (security headers) and the request id. */
export function createResponders(pages: Map<string, PageTemplate>, baseHeaders: Readonly<Record<string, string>>) {
  /** A page's own CSP (its script hashes, from the build) plus the header-only frame-ancestors. */
  function pagePolicy(page: PageTemplate): string {
    return page.csp ? `${page.csp.replace(/;\s*$/, "")}; ${FRAME_ANCESTORS}` : baseHeaders["Content-Security-Policy"]!;
  }

  /**
   * The lists for a body served with `headers` (the route's own, over the base ones). `revalidate`
   * (public assets) adds the ETag and a 304 form; no-store responses (pages, search files) get
   * neither, since nothing may keep them to revalidate.
   */
  function prepare(body: Body, headers: Record<string, string>, revalidate: boolean): Prepared {
    const forms: [Form, Buffer | undefined, string | undefined][] = [
      ["raw", body.raw, undefined],
      ["br", body.br, "br"],
      ["gzip", body.gzip, "gzip"],
    ];
    const compressed = Boolean(body.br || body.gzip);
    const prepared: Partial<Prepared> = {};
    const notModified: Partial<Prepared["notModified"] & object> = {};
    for (const [form, payload, encoding] of forms) {
      if (!payload) continue;
      const all: Record<string, string> = { ...headers };
      if (encoding) all["Content-Encoding"] = encoding;
      if (compressed) all["Vary"] = all["Vary"] ? `${all["Vary"]}, Accept-Encoding` : "Accept-Encoding";
      for (const [name, value] of Object.entries(baseHeaders)) all[name] ??= value;
      if (revalidate) {
        all["ETag"] = body.etag;
        notModified[form] = toList(all);
      }
      all["Content-Length"] = String(payload.length);
      prepared[form] = toList(all);
    }
    if (revalidate) prepared.notModified = notModified as Prepared["notModified"];
    return prepared as Prepared;
  }

  /** One cache per kind of response: a body is always served as the same kind. */
  function cacheOf<T extends Body>(build: (body: T) => Prepared) {
    const cache = new WeakMap<T, Prepared>();
    return (body: T): Prepared => {
      let prepared = cache.get(body);
      if (!prepared) cache.set(body, (prepared = build(body)));
      return prepared;
    };
  }

  /** Writes a body from memory, brotli or gzip when the client takes it. */
  function send(req: IncomingMessage, res: ServerResponse, status: number, body: Body, prepared: Prepared, extra?: HeaderList) {
    let form: Form = "raw";
    if (body.br || body.gzip) {
      const accept = req.headers["accept-encoding"] ?? "";
      if (body.br && accept.includes("br")) form = "br";
      else if (body.gzip && accept.includes("gzip")) form = "gzip";
    }
    if (prepared.notModified && req.headers["if-none-match"] === body.etag) {
      writeHead(res, 304, prepared.notModified[form]!);
      res.end();
      return;
    }
    const list = prepared[form]!;
    writeHead(res, status, extra ? [...list, ...extra] : list);
    res.end(req.method === "HEAD" ? undefined : form === "raw" ? body.raw : body[form]);
  }

  const assetHeaders = cacheOf((asset: Asset) =>
    prepare(
      asset,
      {
        "Content-Type": asset.type,
        "Cache-Control": asset.immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        ...(asset.type.startsWith("text/javascript") ? { "Content-Security-Policy": SCRIPT_FILE_CSP } : {}),
      },
      true,
    ),
  );
  const searchHeaders = cacheOf((file: Asset) =>
    prepare(file, { "Content-Type": file.type, "Cache-Control": "private, no-store", "Content-Security-Policy": SCRIPT_FILE_CSP }, false),
  );
  // The name is a checked file name (lower-case words, hyphens, one extension), safe inside the quotes.
  const downloadHeaders = cacheOf((file: DownloadFile) =>
    prepare(
      file,
      { "Content-Type": file.type, "Content-Disposition": `attachment; filename="${file.name}"`, "Cache-Control": "private, no-store" },
      false,
    ),
  );
  /** Page variants: the page's policy is the same for all of them, taken from its template. */
  const pageBodies = new WeakMap<Body, Prepared>();
  function pageHeaders(page: PageTemplate, body: Body): Prepared {
    let prepared = pageBodies.get(body);
    if (!prepared) {
      const headers: Record<string, string> = {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "private, no-store",
        Vary: "Cookie",
      };
      if (page.csp) headers["Content-Security-Policy"] = pagePolicy(page);
      pageBodies.set(body, (prepared = prepare(body, headers, false)));
    }
    return prepared;
  }

  /** A public file (`dist/client`), with its ETag; If-None-Match gets a 304. */
  function sendAsset(req: IncomingMessage, res: ServerResponse, asset: Asset) {
    send(req, res, 200, asset, assetHeaders(asset));
  }

  /** A search file: private, never stored, with the policy a Worker script needs. */
  function sendSearchFile(req: IncomingMessage, res: ServerResponse, file: Asset) {
    send(req, res, 200, file, searchHeaders(file));
  }

  /** A file offered by a page, saved by the browser under its own name; never stored by caches. */
  function sendDownload(req: IncomingMessage, res: ServerResponse, file: DownloadFile, cookie?: string) {
    send(req, res, 200, file, downloadHeaders(file), cookie ? ["Set-Cookie", cookie] : undefined);
  }

  const redirectHead = toList({ ...baseHeaders, "Cache-Control": "no-store" });
  function redirect(res: ServerResponse, location: string, cookie?: string) {
    const list = [...redirectHead, "Location", location];
    if (cookie) list.push("Set-Cookie", cookie);
    writeHead(res, 302, list);
    res.end();
  }

  const jsonHead = toList({ ...baseHeaders, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  function json(res: ServerResponse, status: number, payload: unknown) {
    const body = JSON.stringify(payload);
    writeHead(res, status, [...jsonHead, "Content-Length", String(Buffer.byteLength(body))]);
    res.end(body);
  }

  /** An answer with no body beyond the base headers and `extra` (a 405's `Allow`). */
  function empty(res: ServerResponse, status: number, extra: Record<string, string>) {
    writeHead(res, status, toList({ ...baseHeaders, ...extra }));
    res.end();
  }

  function sendPage(req: IncomingMessage, res: ServerResponse, path: string, principal: Principal | null, status = 200, cookie?: string) {
    const page = pages.get(path) ?? pages.get("/404");
    if (!page) {
      writeHead(res, 404, toList({ ...baseHeaders }));
      res.end("404");
      return;
    }
    const body = page.body(principal);
    send(req, res, status, body, pageHeaders(page, body), cookie ? ["Set-Cookie", cookie] : undefined);
  }

  /** The 500 or 503 page (built per error: it carries the request id). */
  function sendError(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer, policy: string) {
    writeHead(
      res,
      status,
      toList({
        ...baseHeaders,
        "Content-Security-Policy": policy,
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
      }),
    );
    res.end(req.method === "HEAD" ? undefined : body);
  }

  return { sendAsset, sendSearchFile, sendDownload, redirect, json, empty, sendPage, sendError, pagePolicy };
}
