import type { IncomingMessage, ServerResponse } from "node:http";
import type { Config } from "../lib/server/config.ts";
import type { Db } from "../lib/server/db.ts";
import { writeAuditLog } from "../lib/server/audit.ts";
import { createSessionValidator, readSessionCookie, sessionCookieHeader, type ValidatedSession } from "../lib/server/session.ts";
import type { Asset, Body, PageTemplate } from "../lib/server/static-files.ts";
import { decideAccess, findApiRule, findRoute, type Principal, type RouteRule } from "../lib/routes.ts";
import { normalizePath } from "../lib/url-path.ts";
import { isSameOrigin } from "../lib/server/origin.ts";
import type { Logger } from "pino";
import { logger as sharedLogger } from "../lib/server/logger.ts";
import { requestContextOf } from "./observability/request-context.ts";
import { errorPageWithRequestId } from "./observability/error-page.ts";

/** The Astro node adapter's handler (middleware mode). */
export type AppHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: App.Locals) => Promise<void>;

export interface GateOptions {
  db: Db;
  config: Config;
  assets: Map<string, Asset>;
  pages: Map<string, PageTemplate>;
  /** Search bundles: file path → body, per access set (see search.ts); optional. */
  search?: SearchFiles;
  appHandler: AppHandler;
  /** Where unhandled errors are logged (the process-wide logger by default). */
  logger?: Logger;
  /** Receives the duration of each session check (database included), for the metrics. */
  observeSessionCheck?: (seconds: number) => void;
}

export interface SearchFiles {
  /** Returns the file of `path` (below /pagefind/) from the bundle this principal may read. */
  lookup(principal: Principal, path: string): Asset | undefined;
}

const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

const GRANT_AUDIT_INTERVAL_MS = 60 * 60 * 1000;
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The validator, timed when someone listens (for the metrics), untouched otherwise. */
function timedSessionCheck<T>(validate: (token: string) => T, observe?: (seconds: number) => void): (token: string) => T {
  if (!observe) return validate;
  return (token) => {
    const started = performance.now();
    try {
      return validate(token);
    } finally {
      observe((performance.now() - started) / 1000);
    }
  };
}

/** Builds the request listener that sits in front of the adapter: every request passes here. */
export function createGate(options: GateOptions) {
  const { db, config, assets, pages, appHandler } = options;
  const logger = options.logger ?? sharedLogger();
  const secureCookies = config.publicUrl.startsWith("https://");
  const lastGrantAudit = new Map<string, number>();
  const validateSession = timedSessionCheck(createSessionValidator(db), options.observeSessionCheck);

  function clientIp(req: IncomingMessage): string | null {
    if (config.trustProxy) {
      const forwarded = req.headers["x-forwarded-for"];
      const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
      if (first) return first;
    }
    return req.socket.remoteAddress ?? null;
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
    for (const name in SECURITY_HEADERS) headers[name] = SECURITY_HEADERS[name]!;
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
    res.writeHead(302, { ...SECURITY_HEADERS, Location: location, "Cache-Control": "no-store", ...extra });
    res.end();
  }

  function json(res: ServerResponse, status: number, payload: unknown) {
    const body = JSON.stringify(payload);
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Length": String(Buffer.byteLength(body)),
    });
    res.end(body);
  }

  function sendPage(req: IncomingMessage, res: ServerResponse, path: string, principal: Principal | null, status = 200, cookie?: string) {
    const page = pages.get(path) ?? pages.get("/404");
    if (!page) {
      res.writeHead(404, SECURITY_HEADERS).end("404");
      return;
    }
    const headers: Record<string, string> = {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "private, no-store",
      Vary: "Cookie",
    };
    if (cookie) headers["Set-Cookie"] = cookie;
    send(req, res, status, page.body(principal), headers);
  }

  function notFound(req: IncomingMessage, res: ServerResponse, path: string, principal: Principal | null) {
    sendPage(req, res, "/404", principal, 404);
  }

  function auditDecision(route: RouteRule, auth: ValidatedSession, req: IncomingMessage, granted: boolean) {
    if (granted) {
      // Grants are recorded for role-gated pages only, once per session and page per hour.
      if (route.access.kind !== "roles") return;
      const key = `${auth.session.id}:${route.path}`;
      const last = lastGrantAudit.get(key) ?? 0;
      if (Date.now() - last < GRANT_AUDIT_INTERVAL_MS) return;
      if (lastGrantAudit.size > 10_000) lastGrantAudit.clear();
      lastGrantAudit.set(key, Date.now());
    }
    writeAuditLog(db, {
      userId: auth.principal.userId,
      actionType: granted ? "page_access_granted" : "page_access_denied",
      result: granted ? "success" : "blocked",
      details: { path: route.path, roles: auth.principal.roles },
      ipAddress: clientIp(req),
      userAgent: req.headers["user-agent"] ?? null,
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? "/";
    const queryStart = url.indexOf("?");
    const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
    const query = queryStart === -1 ? "" : url.slice(queryStart);
    const path = normalizePath(rawPath);
    const method = req.method ?? "GET";
    const context = requestContextOf(req);
    if (context) context.path = path;

    if (path === null) return notFound(req, res, rawPath, null);

    const asset = assets.get(path);
    if (asset && (method === "GET" || method === "HEAD")) {
      return send(
        req,
        res,
        200,
        asset,
        { "Content-Type": asset.type, "Cache-Control": asset.immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600" },
        true,
      );
    }

    const token = readSessionCookie(req.headers.cookie);
    const auth = token ? validateSession(token) : null;
    const principal = auth?.principal ?? null;
    if (context && principal) context.userId = principal.userId;
    const renewedCookie = auth?.session.renewed ? sessionCookieHeader(token!, auth.session.expiresAt, secureCookies) : undefined;

    if (path.startsWith("/pagefind/") || path === "/pagefind") {
      if (!principal) return json(res, 401, { error: "Não autenticado" });
      const file = options.search?.lookup(principal, path.slice("/pagefind".length));
      if (!file) return json(res, 404, { error: "Não encontrado" });
      return send(req, res, 200, file, { "Content-Type": file.type, "Cache-Control": "private, no-store" });
    }

    if (path === "/api" || path.startsWith("/api/") || path.startsWith("/_actions/") || path.startsWith("/_server-islands/")) {
      const rule = findApiRule(path);
      const route = rule ? findRoute(rule.page) : undefined;
      if (!route) return json(res, 404, { error: "Não encontrado" });
      const decision = decideAccess(route, principal);
      if (decision === "sign-in") return json(res, 401, { error: "Não autenticado" });
      if (decision === "deny") {
        auditDecision(route, auth!, req, false);
        return json(res, 403, { error: "Acesso negado" });
      }
      if (UNSAFE_METHODS.has(method) && !isSameOrigin(req.headers, config.publicUrl)) {
        return json(res, 403, { error: "Origem da requisição não permitida" });
      }
      if (renewedCookie) res.setHeader("Set-Cookie", renewedCookie);
      const locals: App.Locals = { principal, sessionId: auth?.session.id ?? null, clientIp: clientIp(req) };
      return appHandler(req, res, () => json(res, 404, { error: "Não encontrado" }), locals);
    }

    const route = findRoute(path);
    if (!route || !pages.has(path)) return notFound(req, res, path, principal);
    if (method !== "GET" && method !== "HEAD") {
      res.writeHead(405, { ...SECURITY_HEADERS, Allow: "GET, HEAD" }).end();
      return;
    }
    const decision = decideAccess(route, principal);
    if (decision === "sign-in") {
      const next = path === "/" ? "" : `?next=${encodeURIComponent(path + query)}`;
      return redirect(res, `/auth${next}`);
    }
    if (decision === "deny") {
      auditDecision(route, auth!, req, false);
      return redirect(res, "/acesso-negado", renewedCookie ? { "Set-Cookie": renewedCookie } : {});
    }
    if (auth) auditDecision(route, auth, req, true);
    if (route.path === "/auth" && principal && !/[?&](mode=update-password|token=)/.test(query)) {
      return redirect(res, "/");
    }
    return sendPage(req, res, path, principal, 200, renewedCookie);
  }

  /** The request listener: an uncaught error becomes the 500 page; the detail goes to the log only. */
  return function listener(req: IncomingMessage, res: ServerResponse): void {
    handle(req, res).catch((error: unknown) => {
      const context = requestContextOf(req);
      logger.error({ err: error, reqId: context?.id, method: req.method, path: context?.path }, "erro não tratado");
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const page = pages.get("/500");
      const body = errorPageWithRequestId(page ? page.body(null).raw : Buffer.from("<h1>Unexpected Application Error!</h1>"), context?.id);
      res.writeHead(500, { ...SECURITY_HEADERS, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
      res.end(body);
    });
  };
}
