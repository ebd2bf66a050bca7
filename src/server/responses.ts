import type { IncomingMessage, ServerResponse } from "node:http";
import type { Principal } from "../lib/routes.ts";
import type { Body, PageTemplate } from "../lib/server/content/static-files.ts";
import { FRAME_ANCESTORS } from "./security-headers.ts";

/** The gate's response writers; every one carries `baseHeaders` (security headers). */
export function createResponders(pages: Map<string, PageTemplate>, baseHeaders: Readonly<Record<string, string>>) {
  /** A page's own CSP (its script hashes, from the build) plus the header-only frame-ancestors. */
  function pagePolicy(page: PageTemplate): string {
    return page.csp ? `${page.csp.replace(/;\s*$/, "")}; ${FRAME_ANCESTORS}` : baseHeaders["Content-Security-Policy"]!;
  }

  /**
   * Writes a body from memory, brotli or gzip when the client takes it. `revalidate` (public assets)
   * adds the ETag and answers If-None-Match with 304; no-store responses (pages, search files) skip
   * both, since nothing may keep them to revalidate.
   */
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: Body,
    headers: Record<string, string>,
    revalidate = false,
  ) {
    let payload = body.raw;
    if (body.br || body.gzip) {
      const accept = req.headers["accept-encoding"] ?? "";
      if (body.br && accept.includes("br")) {
        payload = body.br;
        headers["Content-Encoding"] = "br";
      } else if (body.gzip && accept.includes("gzip")) {
        payload = body.gzip;
        headers["Content-Encoding"] = "gzip";
      }
      headers["Vary"] = headers["Vary"] ? `${headers["Vary"]}, Accept-Encoding` : "Accept-Encoding";
    }
    for (const name in baseHeaders) headers[name] ??= baseHeaders[name]!;
    if (revalidate) {
      headers["ETag"] = body.etag;
      if (req.headers["if-none-match"] === body.etag) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
    }
    headers["Content-Length"] = String(payload.length);
    res.writeHead(status, headers);
    res.end(req.method === "HEAD" ? undefined : payload);
  }

  function redirect(res: ServerResponse, location: string, extra: Record<string, string> = {}) {
    res.writeHead(302, { ...baseHeaders, Location: location, "Cache-Control": "no-store", ...extra });
    res.end();
  }

  function json(res: ServerResponse, status: number, payload: unknown) {
    const body = JSON.stringify(payload);
    res.writeHead(status, {
      ...baseHeaders,
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Length": String(Buffer.byteLength(body)),
    });
    res.end(body);
  }

  function sendPage(req: IncomingMessage, res: ServerResponse, path: string, principal: Principal | null, status = 200, cookie?: string) {
    const page = pages.get(path) ?? pages.get("/404");
    if (!page) {
      res.writeHead(404, baseHeaders).end("404");
      return;
    }
    const headers: Record<string, string> = {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "private, no-store",
      Vary: "Cookie",
    };
    if (page.csp) headers["Content-Security-Policy"] = `${page.csp.replace(/;\s*$/, "")}; ${FRAME_ANCESTORS}`;
    if (cookie) headers["Set-Cookie"] = cookie;
    send(req, res, status, page.body(principal), headers);
  }

  return { send, redirect, json, sendPage, pagePolicy };
}
