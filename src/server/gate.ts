/**
 * The gate: every request passes here (normalise once, session, access decision) before any page,
 * search file or API. Over 200 lines because the decision is one ordered sequence that reads best
 * in one place; the response writers, body limit and security headers live in their own files.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Config } from "../lib/server/config/config.ts";
import type { Db } from "../lib/server/data/db.ts";
import { writeAuditLog } from "../lib/server/audit/audit.ts";
import { decidingRoles } from "../lib/server/admin/access-matrix.ts";
import type { ValidatedSession } from "../lib/server/sessions/session.ts";
import { createSessionValidator, type Validation } from "../lib/server/sessions/cache.ts";
import { deleteSessionCookieHeader, readSessionCookie, sessionCookieHeader } from "../lib/server/sessions/cookie.ts";
import type { Asset, PageTemplate } from "../lib/server/content/static-files.ts";
import type { SearchFiles } from "../lib/server/content/search-files.ts";
import type { DownloadFile } from "../lib/server/content/download-files.ts";
import { decideAccess, findApiRule, findPageRoute, findRoute, type Principal, type RouteRule } from "../lib/routes.ts";
import { nextTarget, normalizePath } from "../lib/url-path.ts";
import {
  isOpenWhileEnrolling,
  mustEnrolTwoFactor,
  TWO_FACTOR_ENROL_PATH,
  TWO_FACTOR_REQUIRED_MESSAGE,
} from "../lib/auth/two-factor-policy.ts";
import { isAcceptedOrigin, originRefusalMessage } from "../lib/server/http/origin.ts";
import { clientAddress } from "../lib/server/http/client-address.ts";
import { MAX_BODY_BYTES, NUL_QUERY_MESSAGE, TOO_LARGE_MESSAGE } from "../lib/server/http/http.ts";
import { securityHeaders } from "./security-headers.ts";
import { closeAfterAnswer, cutIdleBody, declaresTooLarge, limitRequestBody, readLimitedBody } from "./body-limit.ts";
import { createResponders } from "./responses.ts";
import type { Logger } from "pino";
import { logger as sharedLogger } from "../lib/server/platform/logger.ts";
import { requestContextOf } from "./observability/request-context.ts";
import { errorPageWithRequestId } from "./observability/error-page.ts";
import { answerFailure } from "../lib/server/http/failure.ts";
import { handleScimRequest, isScimPath, type ScimEdge } from "./scim.ts";
import type { InsightsCollector } from "../lib/server/insights/collector.ts";
import { answerSearchBeacon, SEARCH_BEACON_PATH } from "./search-beacon.ts";

/** Paths of the anonymous signals (search beacon, 'Esta página ajudou?'): their request log lines carry no account. */
const ANONYMOUS_SIGNAL_PATHS: ReadonlySet<string> = new Set([SEARCH_BEACON_PATH, "/api/opiniao"]);

/** The Astro node adapter's handler (middleware mode). */
export type AppHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: App.Locals) => Promise<void>;

export interface GateOptions {
  db: Db;
  config: Config;
  assets: Map<string, Asset>;
  pages: Map<string, PageTemplate>;
  /** Search bundles: file path → body, per access set (see search-files.ts); optional. */
  search?: SearchFiles;
  /** Files offered by content pages (see download-files.ts), keyed by URL path; optional. */
  downloads?: Map<string, DownloadFile>;
  appHandler: AppHandler;
  /** Where unhandled errors are logged (the process-wide logger by default). */
  logger?: Logger;
  /** Receives the duration of each session check (database included), for the metrics. */
  observeSessionCheck?: (seconds: number) => void;
  /** Insights' counters: each page served to a signed-in person is offered to it (collector.ts decides what is a read). */
  insights?: InsightsCollector;
}

/** A Host header is a name or IP literal with an optional port, nothing else (no `@`, `/`, `#`). */
const VALID_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
/** API paths the adapter may see: plain segments only, so its router cannot read them differently. */
const PLAIN_API_PATH = /^\/[\w.-]+(?:\/[\w.-]+)*$/;

const DECISION_AUDIT_INTERVAL_MS = 60 * 60 * 1000;
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const API_METHODS = new Set(["GET", "HEAD", ...UNSAFE_METHODS]);
const API_ALLOW = [...API_METHODS].join(", ");

const isSearchPath = (path: string) => path === "/pagefind" || path.startsWith("/pagefind/");
/** What the Astro adapter answers: the API, Astro's action and island routes. */
const isAdapterPath = (path: string) =>
  path === "/api" || path.startsWith("/api/") || path.startsWith("/_actions/") || path.startsWith("/_server-islands/");

const secondsSince = (started: number) => (performance.now() - started) / 1000;

/** A check that had to wait (a lookup, a renewal): timed once it settles, successful or not. */
function observeWhenSettled(pending: Promise<ValidatedSession | null>, started: number, observe: (seconds: number) => void) {
  return pending.finally(() => observe(secondsSince(started)));
}

type SessionCheck = (token: string, now?: number, unhurried?: boolean) => Validation;

/** The validator, timed when someone listens (for the metrics), untouched otherwise; no promise added when it answered without one. */
function timedSessionCheck(validate: SessionCheck, observe?: (seconds: number) => void): SessionCheck {
  if (!observe) return validate;
  return (token, now, unhurried) => {
    // A check that chose to wait for a shared read (a search beacon) would only blur the figure.
    if (unhurried) return validate(token, now, unhurried);
    const started = performance.now();
    let result: Validation;
    try {
      result = validate(token, now, unhurried);
    } catch (error) {
      observe(secondsSince(started));
      throw error;
    }
    if (result instanceof Promise) return observeWhenSettled(result, started, observe);
    observe(secondsSince(started));
    return result;
  };
}

/** Builds the request listener that sits in front of the adapter: every request passes here. */
export function createGate(options: GateOptions) {
  const { db, config, assets, pages, appHandler } = options;
  const logger = options.logger ?? sharedLogger();
  const secureCookies = config.publicUrl.startsWith("https://");
  const lastDecisionAudit = new Map<string, number>();
  const validateSession = timedSessionCheck(createSessionValidator(db), options.observeSessionCheck);
  const publicHost = new URL(config.publicUrl).host;
  const baseHeaders = securityHeaders(config.publicUrl);
  // Own entries only, listed once: a `for…in` here copied any key polluting Object.prototype onto every answer.
  const baseHeaderEntries = Object.entries(baseHeaders);

  function clientIp(req: IncomingMessage): string | null {
    return clientAddress(req.headers["x-forwarded-for"], req.socket.remoteAddress, config.trustProxy);
  }

  const { sendAsset, sendSearchFile, sendDownload, redirect, json, empty, sendPage, sendError, pagePolicy } = createResponders(
    pages,
    baseHeaders,
  );
  const scim: ScimEdge | null = config.scim
    ? { db, settings: config.scim, publicUrl: config.publicUrl, logger, headers: baseHeaders, clientIp }
    : null;

  function notFound(req: IncomingMessage, res: ServerResponse, path: string, principal: Principal | null) {
    sendPage(req, res, "/404", principal, 404);
  }

  async function auditDecision(route: RouteRule, auth: ValidatedSession, req: IncomingMessage, granted: boolean) {
    // Grants are recorded for role-gated pages only; grants and denials once per session and page per hour,
    // with the roles that opened the page (grantedBy) or would have (requiredRoles).
    if (granted && route.access.kind !== "roles") return;
    const key = `${auth.session.id}:${route.path}:${granted ? "granted" : "denied"}`;
    const last = lastDecisionAudit.get(key) ?? 0;
    if (Date.now() - last < DECISION_AUDIT_INTERVAL_MS) return;
    if (lastDecisionAudit.size > 10_000) lastDecisionAudit.clear();
    lastDecisionAudit.set(key, Date.now());
    const deciders = await decidingRoles(db, route, auth.principal.userId, granted);
    await writeAuditLog(db, {
      userId: auth.principal.userId,
      actionType: granted ? "page_access_granted" : "page_access_denied",
      result: granted ? "success" : "blocked",
      details: { path: route.path, roles: auth.principal.roles, [granted ? "grantedBy" : "requiredRoles"]: deciders },
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
    const host = req.headers.host;
    if (host !== undefined && !VALID_HOST.test(host)) return json(res, 400, { error: "Requisição inválida" });

    const asset = assets.get(path);
    if (asset && (method === "GET" || method === "HEAD")) return sendAsset(req, res, asset);

    // The directory's machine-to-machine API: its bearer token, not a session cookie, decides (scim.ts).
    if (isScimPath(path)) return scim ? handleScimRequest(scim, req, res, path, query) : notFound(req, res, path, null);

    const { token, conflict } = readSessionCookie(req.headers.cookie, secureCookies);
    // Two session cookies (one planted by a sibling subdomain): signed out, and ours is cleared.
    if (conflict) res.setHeader("Set-Cookie", deleteSessionCookieHeader(secureCookies));
    // A search beacon's answer is read by nobody: its session check may share the change counter's read (cache.ts).
    let auth = token ? validateSession(token, undefined, path === SEARCH_BEACON_PATH) : null;
    // A cached session answers at once; a lookup or a renewal is waited for.
    if (auth instanceof Promise) auth = await auth;
    const principal = auth?.principal ?? null;
    // The anonymous signals' log lines name nobody: an account at the second of a vote or a search would undo their pseudonyms.
    if (context && principal && !ANONYMOUS_SIGNAL_PATHS.has(path)) context.userId = principal.userId;
    const renewedCookie = auth?.session.renewed ? sessionCookieHeader(token!, auth.session.expiresAt, secureCookies) : undefined;
    // A role that requires two-factor opens nothing but the enrolment page until this session presents it.
    const mustEnrol = mustEnrolTwoFactor(auth, config.twoFactor.requiredRoles);

    if (isSearchPath(path)) {
      if (!principal) return json(res, 401, { error: "Não autenticado" });
      if (mustEnrol) return json(res, 403, { error: TWO_FACTOR_REQUIRED_MESSAGE, code: "two_factor_required" });
      // Search files are read, never written: a POST answered the file with 200.
      if (method !== "GET" && method !== "HEAD") return empty(res, 405, { Allow: "GET, HEAD" });
      const file = options.search?.lookup(principal, path.slice("/pagefind".length));
      if (!file) return json(res, 404, { error: "Não encontrado" });
      return sendSearchFile(req, res, file);
    }

    if (isAdapterPath(path)) {
      if (!API_METHODS.has(method)) {
        res.setHeader("Allow", API_ALLOW);
        return json(res, 405, { error: "Método não permitido" });
      }
      // The adapter routes on the raw URL: any spelling that normalises to something else is refused.
      if (rawPath.replace(/(.)\/$/, "$1") !== path || !PLAIN_API_PATH.test(path)) return json(res, 404, { error: "Não encontrado" });
      // A NUL character in the query string: PostgreSQL refuses it in text (every free-text filter
      // answered 500), SQLite would search for it; no filter of ours ever means it.
      if (query.includes("%00")) return json(res, 400, { error: NUL_QUERY_MESSAGE });
      const rule = findApiRule(path);
      const route = rule ? findRoute(rule.page) : undefined;
      if (!route) return json(res, 404, { error: "Não encontrado" });
      const decision = decideAccess(route, principal);
      if (decision === "sign-in") return json(res, 401, { error: "Não autenticado" });
      if (decision === "deny") {
        await auditDecision(route, auth!, req, false);
        return json(res, 403, { error: "Acesso negado" });
      }
      if (mustEnrol && !isOpenWhileEnrolling(path))
        return json(res, 403, { error: TWO_FACTOR_REQUIRED_MESSAGE, code: "two_factor_required" });
      if (UNSAFE_METHODS.has(method) && !isAcceptedOrigin(req.headers, config.acceptedOrigins)) {
        return json(res, 403, { error: originRefusalMessage(config.publicUrl) });
      }
      // An oversized body is refused before a byte of it is read; the connection closes.
      const tooLarge = () => {
        res.setHeader("Connection", "close");
        closeAfterAnswer(req.socket);
      };
      if (method !== "GET" && method !== "HEAD") {
        if (declaresTooLarge(req, MAX_BODY_BYTES)) {
          tooLarge();
          return json(res, 413, { error: TOO_LARGE_MESSAGE });
        }
        if (path !== SEARCH_BEACON_PATH) Reflect.set(req, "body", limitRequestBody(req, MAX_BODY_BYTES, tooLarge));
        cutIdleBody(req, res, config.bodyIdleTimeoutMs);
      }
      if (renewedCookie) res.setHeader("Set-Cookie", renewedCookie);
      // Search beacons (up to hundreds a second) are answered here: Astro's request pipeline cost more than the beacon.
      if (path === SEARCH_BEACON_PATH) {
        return answerBeacon(req, res, method, principal!.userId, () => readLimitedBody(req, MAX_BODY_BYTES, tooLarge));
      }
      for (const [name, value] of baseHeaderEntries) res.setHeader(name, value);
      if (context) res.setHeader("X-Request-Id", context.id);
      // Astro builds its URL from these two: it must see exactly what was decided on.
      req.url = path + query;
      req.headers.host = publicHost;
      const locals: App.Locals = {
        principal,
        sessionId: auth?.session.id ?? null,
        clientIp: clientIp(req),
        requestId: context?.id,
        insights: options.insights,
      };
      return appHandler(req, res, () => json(res, 404, { error: "Não encontrado" }), locals);
    }

    const download = options.downloads?.get(path);
    if (download) {
      if (method !== "GET" && method !== "HEAD") return empty(res, 405, { Allow: "GET, HEAD" });
      // Whoever may open one of the pages listing the file may download it; otherwise the answer is that page's.
      const listing = download.pages.map(findRoute).filter((rule) => rule !== undefined);
      const decisions = listing.map((rule) => decideAccess(rule, principal));
      const open = listing[decisions.indexOf("allow")];
      if (!open) {
        if (decisions.includes("sign-in") || !auth) return redirect(res, `/auth?next=${nextTarget(path, query)}`);
        const refused = listing[0];
        if (!refused) return notFound(req, res, path, principal);
        await auditDecision(refused, auth, req, false);
        return redirect(res, `/acesso-negado?pagina=${encodeURIComponent(refused.path)}`, renewedCookie);
      }
      if (mustEnrol && open.access.kind !== "public") {
        return redirect(res, `${TWO_FACTOR_ENROL_PATH}?next=${nextTarget(path, query)}`, renewedCookie);
      }
      return sendDownload(req, res, download, renewedCookie);
    }

    const route = findPageRoute(path);
    if (!route || !pages.has(path)) return notFound(req, res, path, principal);
    if (method !== "GET" && method !== "HEAD") {
      return empty(res, 405, { Allow: "GET, HEAD" });
    }
    const decision = decideAccess(route, principal);
    if (decision === "sign-in") {
      const next = path === "/" ? "" : `?next=${nextTarget(path, query)}`;
      return redirect(res, `/auth${next}`);
    }
    if (decision === "deny") {
      await auditDecision(route, auth!, req, false);
      return redirect(res, `/acesso-negado?pagina=${encodeURIComponent(route.of ?? route.path)}`, renewedCookie);
    }
    if (mustEnrol && route.access.kind !== "public" && route.path !== TWO_FACTOR_ENROL_PATH) {
      return redirect(res, `${TWO_FACTOR_ENROL_PATH}?next=${nextTarget(path, query)}`, renewedCookie);
    }
    // Checked here as well: an await of a call that records nothing would still suspend every page request.
    if (auth && route.access.kind === "roles") await auditDecision(route, auth, req, true);
    if (route.path === "/auth" && principal && !/[?&](mode=update-password|token=)/.test(query)) {
      return redirect(res, "/");
    }
    // Counted under the route's own path (the same text): a constant string the counter's map finds at once, where the
    // request's copy was a fresh string the batch met cold, held from an old array to the young generation.
    if (principal && route.of === undefined) options.insights?.countRead(method, req.headers, route.path, principal);
    return sendPage(req, res, path, principal, 200, renewedCookie);
  }

  /** POST /api/busca (beacon.ts), after every check the adapter's endpoints get; the body was cut at MAX_BODY_BYTES above. */
  async function answerBeacon(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    userId: string,
    readBody: () => Promise<string | null>,
  ) {
    if (method !== "POST") return empty(res, 405, { Allow: "POST" });
    const answer = await answerSearchBeacon(options.insights, userId, readBody);
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    if (answer.status === 204) return empty(res, 204, { "Cache-Control": "no-store" });
    return json(res, answer.status, answer.body);
  }

  /**
   * An uncaught error is logged with the request id and answered: 503 with Retry-After while the
   * database is away or cannot write, else 500 with the request id; JSON on the API, the Portuguese
   * error page elsewhere. The detail goes to the log only.
   */
  function fail(req: IncomingMessage, res: ServerResponse, error: unknown) {
    const context = requestContextOf(req);
    const answer = answerFailure(logger, error, { reqId: context?.id, method: req.method, path: context?.path });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    const path = context?.path ?? normalizePath((req.url ?? "/").split("?")[0]!) ?? "";
    if (isAdapterPath(path) || isSearchPath(path) || isScimPath(path)) return json(res, answer.status, answer.body);
    const page = pages.get(answer.status === 503 ? "/503" : "/500");
    const fallback = Buffer.from(answer.status === 503 ? "<h1>Serviço indisponível</h1>" : "<h1>Erro inesperado</h1>");
    const body = errorPageWithRequestId(page ? page.body(null).raw : fallback, context?.id);
    sendError(req, res, answer.status, body, page ? pagePolicy(page) : baseHeaders["Content-Security-Policy"]!);
  }

  /** The request listener (an async function rather than a `.catch` closure per request). */
  return async function listener(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await handle(req, res);
    } catch (error) {
      fail(req, res, error);
    }
  };
}
