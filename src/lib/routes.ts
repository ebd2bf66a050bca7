/**
 * The one route table of the portal. The gate, the navigation, the seed of the `pages`
 * table, the admin checklists and the tests all read it. Pure data + pure functions, except
 * for reading the build's content-page manifest once when the module loads.
 * Over 200 lines because it is the table itself: one entry per page, kept in one place on purpose.
 */
import { manifestGeneration, readContentManifest, type ContentPageEntry } from "./content-manifest.ts";
import { historyPath, pageOfHistoryPath } from "./content/page-history.ts";

export const SYSTEM_ROLES = ["admin", "lider", "visualizador", "security"] as const;
export type SystemRole = (typeof SYSTEM_ROLES)[number];
/** The role that always keeps every page (decideAccess), so that no restriction can lock the admins out. */
export const ADMIN_ROLE = "admin" satisfies SystemRole;

/** Who may open a route. */
export type Access =
  /** Anyone, signed in or not. */
  | { kind: "public" }
  /** Any signed-in user, whatever roles they hold (even none). */
  | { kind: "signed-in" }
  /** Signed-in users holding one of `roles`, or a role whose page permission grants the path. */
  | { kind: "roles"; roles: readonly SystemRole[]; grantable: boolean };

export interface NavEntry {
  /** Label shown in the header. */
  label: string;
  /** Roles that see the entry; empty means everybody (also signed-out visitors). */
  roles: readonly SystemRole[];
}

export interface RouteRule {
  /** Canonical path: leading slash, no trailing slash (except `/`). */
  path: string;
  /** Portuguese page name (pages table, admin checklists, placeholder titles). */
  name: string;
  access: Access;
  /** Present when the route has an entry in the header navigation. */
  nav?: NavEntry;
  /** Label in the header's 'Mais' menu (pages not on the bar, shown to whoever may open them). */
  more?: string;
  /** Part of the methodology's reading order ('Anterior' / 'Próxima'), which is this table's order. */
  reading?: true;
  /** A page's history (/historico/<page>): open exactly to who may open that page (decideAccess). */
  of?: string;
}

const PUBLIC: Access = { kind: "public" };
const SIGNED_IN: Access = { kind: "signed-in" };
const CONTENT_NAV_ROLES: readonly SystemRole[] = ["visualizador", "lider", "admin"];

/** Routes of the pages written in `src/pages`. */
export const STATIC_ROUTES: readonly RouteRule[] = [
  { path: "/", name: "Início", access: PUBLIC, nav: { label: "Home", roles: [] } },
  { path: "/auth", name: "Autenticação", access: PUBLIC },
  { path: "/signup-error", name: "Erro no Cadastro", access: PUBLIC },
  { path: "/link-expired", name: "Link Expirado", access: PUBLIC },
  { path: "/confirmation-sent", name: "Confirmação Enviada", access: PUBLIC },
  { path: "/acesso-negado", name: "Acesso Negado", access: SIGNED_IN },
  { path: "/dois-fatores", name: "Verificação do Login", access: PUBLIC },
  { path: "/conta/dois-fatores", name: "Verificação em Duas Etapas", access: SIGNED_IN },
  { path: "/conta/sessoes", name: "Minhas Sessões", access: SIGNED_IN },
  { path: "/conta/notificacoes", name: "Notificações por E-mail", access: SIGNED_IN },
  { path: "/leitura", name: "Pendências de Leitura", access: SIGNED_IN },
  { path: "/novidades", name: "Novidades", access: SIGNED_IN, more: "Novidades" },
  {
    path: "/home-metodologia",
    name: "Metodologia B1",
    access: SIGNED_IN,
    reading: true,
    nav: { label: "Metodologia B1", roles: CONTENT_NAV_ROLES },
  },
  { path: "/metodologia-ai-first", name: "Metodologia AI First", access: SIGNED_IN, reading: true, more: "Metodologia AI First" },
  { path: "/ai-first-fast-track", name: "AI First Fast Track", access: SIGNED_IN, reading: true },
  { path: "/5ps", name: "Os 5 Ps", access: SIGNED_IN, reading: true, nav: { label: "Os 5 Ps", roles: CONTENT_NAV_ROLES } },
  {
    path: "/etapas-processo",
    name: "Etapas do Processo",
    access: SIGNED_IN,
    reading: true,
    nav: { label: "Etapas do Processo", roles: CONTENT_NAV_ROLES },
  },
  {
    path: "/templates",
    name: "Templates & Ferramentas",
    access: SIGNED_IN,
    reading: true,
    nav: { label: "Templates & Ferramentas", roles: CONTENT_NAV_ROLES },
  },
  { path: "/playbook-produtos", name: "Playbook de Produtos", access: SIGNED_IN, reading: true, more: "Playbook de Produtos" },
  { path: "/ferramentas-ia", name: "Ferramentas de IA", access: SIGNED_IN, reading: true, more: "Ferramentas de IA" },
  { path: "/trilha-interativa", name: "Trilha Interativa", access: SIGNED_IN, reading: true, more: "Trilha Interativa" },
  { path: "/faq", name: "Perguntas Frequentes", access: SIGNED_IN, reading: true, nav: { label: "FAQ", roles: CONTENT_NAV_ROLES } },
  { path: "/glossario", name: "Glossário", access: SIGNED_IN, reading: true, nav: { label: "Glossário", roles: CONTENT_NAV_ROLES } },
  { path: "/contato", name: "Contato", access: SIGNED_IN, reading: true, nav: { label: "Contato", roles: CONTENT_NAV_ROLES } },
  { path: "/sobre-b1", name: "Sobre a B1", access: SIGNED_IN, reading: true, more: "Sobre a B1" },
  { path: "/sementezz", name: "Sementezz", access: SIGNED_IN, reading: true, more: "Sementezz" },
  {
    path: "/comite-ia",
    name: "Comitê de IA",
    access: { kind: "roles", roles: ["lider", "admin"], grantable: true },
    reading: true,
    nav: { label: "Comitê IA", roles: ["lider", "admin"] },
  },
  {
    path: "/audit-logs",
    name: "Logs de Auditoria",
    access: { kind: "roles", roles: ["admin", "security"], grantable: true },
  },
  {
    path: "/insights",
    name: "Insights",
    access: { kind: "roles", roles: ["admin"], grantable: true },
  },
  { path: "/privacidade", name: "Privacidade das Métricas", access: SIGNED_IN },
  {
    path: "/leitura/relatorio",
    name: "Relatório de Leitura",
    access: { kind: "roles", roles: ["admin", "lider"], grantable: true },
  },
  {
    path: "/admin-panel",
    name: "Painel Administrativo",
    access: { kind: "roles", roles: ["admin"], grantable: false },
  },
];

/** The route of a page written as a content file: role-gated pages can be granted to custom roles. */
export function contentPageRoute(page: ContentPageEntry): RouteRule {
  const access: Access = page.access === "signed-in" ? SIGNED_IN : { kind: "roles", roles: page.access, grantable: true };
  const navRoles = page.access === "signed-in" ? CONTENT_NAV_ROLES : page.access;
  return {
    path: page.path,
    name: page.title,
    access,
    reading: true,
    ...(page.nav === "header" ? { nav: { label: page.navLabel ?? page.title, roles: navRoles } } : {}),
  };
}

/** Content pages in menu order (then by title), as the manifest lists them. */
function contentRoutes(pages: readonly ContentPageEntry[]): RouteRule[] {
  return [...pages].sort((a, b) => a.order - b.order || a.title.localeCompare(b.title, "pt-BR")).map(contentPageRoute);
}

const CONTENT_PAGES = readContentManifest();

export const ROUTES: readonly RouteRule[] = [...STATIC_ROUTES, ...contentRoutes(CONTENT_PAGES)];

/** `astro dev`: the digest of the content pages this route table (and so the menu) was built from. */
export const contentGeneration = (): string => manifestGeneration(CONTENT_PAGES);

/** JSON endpoints; each one is guarded like the page it serves. */
export interface ApiRule {
  /** Path prefix as segments, e.g. `/api/admin` matches `/api/admin` and `/api/admin/…`. */
  prefix: string;
  /** The page whose access rule applies. */
  page: string;
}

export const API_RULES: readonly ApiRule[] = [
  { prefix: "/api/admin", page: "/admin-panel" },
  { prefix: "/api/audit-logs", page: "/audit-logs" },
  { prefix: "/api/trail", page: "/trilha-interativa" },
  { prefix: "/api/auth", page: "/auth" },
  { prefix: "/api/conta", page: "/conta/dois-fatores" },
  { prefix: "/api/leitura", page: "/leitura" },
  { prefix: "/api/leitura/relatorio", page: "/leitura/relatorio" },
  { prefix: "/api/novidades", page: "/novidades" },
  // A reader's own signals (feedback vote, search beacon): open to anyone signed in, like /leitura;
  // each endpoint then checks the page the signal is about (refused like an unknown page).
  { prefix: "/api/opiniao", page: "/leitura" },
  { prefix: "/api/busca", page: "/leitura" },
  { prefix: "/api/insights", page: "/insights" },
];

const routesByPath = new Map(ROUTES.map((route) => [route.path, route]));

export function findRoute(path: string): RouteRule | undefined {
  return routesByPath.get(path);
}

/** The history routes of the content pages (the reading order), made once: the gate only looks them up. */
const historyRoutes = new Map(
  ROUTES.filter((route) => route.reading).map((route) => {
    const rule: RouteRule = { path: historyPath(route.path), name: `Histórico: ${route.name}`, access: route.access, of: route.path };
    return [rule.path, rule] as const;
  }),
);

/** A page's route, or the route of a content page's history (/historico/<page>); not in ROUTES, so no checklist offers it. */
export function findPageRoute(path: string): RouteRule | undefined {
  return routesByPath.get(path) ?? (pageOfHistoryPath(path) ? historyRoutes.get(path) : undefined);
}

/** The API rule whose prefix covers `path` segment by segment (longest prefix wins). */
export function findApiRule(path: string): ApiRule | undefined {
  let best: ApiRule | undefined;
  for (const rule of API_RULES) {
    if ((path === rule.prefix || path.startsWith(rule.prefix + "/")) && (!best || rule.prefix.length > best.prefix.length)) {
      best = rule;
    }
  }
  return best;
}

/** What the gate knows about the person behind a request. */
export interface Principal {
  userId: string;
  email: string;
  name: string;
  /** The system roles held (rows flagged is_system); custom roles act only through `grantedPaths`. */
  roles: readonly string[];
  /** Paths granted by `role_permissions` of any of the user's roles. */
  grantedPaths: ReadonlySet<string>;
  /** True when the person holds roles and every one is a custom role marked 'Acesso limitado'. */
  limited?: boolean;
  /** Pages whose audience the admin panel set: for them the route table's rule is set aside. */
  overridden?: ReadonlySet<string>;
  /** Of `overridden`, the pages whose audience holds one of the person's roles. */
  audiencePaths?: ReadonlySet<string>;
}

/** How the role dialog and the page-access screen group the pages. */
export type PageGroup = "conteudo" | "restritas" | "administracao";

/**
 * The group of a page an admin may grant or restrict: methodology pages open to anyone signed in
 * (Conteúdo), role-gated pages that roles can be granted (Restritas), the others (Administração).
 * Public and account pages (sign-in, 'Minhas sessões', Novidades…) have none: always open as they are.
 */
export function pageGroup(route: RouteRule): PageGroup | null {
  if (route.of !== undefined) return null;
  if (route.access.kind === "signed-in") return route.reading ? "conteudo" : null;
  if (route.access.kind === "roles") return route.access.grantable ? "restritas" : "administracao";
  return null;
}

export type Decision = "allow" | "sign-in" | "deny";

/** The access decision for one route; the only place where it is made. */
export function decideAccess(route: RouteRule, principal: Principal | null): Decision {
  if (route.of !== undefined) {
    // A history is the page's own words: the page's rule decides, panel restrictions and limited roles included.
    const subject = routesByPath.get(route.of);
    return subject ? decideAccess(subject, principal) : "deny";
  }
  const { access } = route;
  if (access.kind === "public") return "allow";
  if (!principal) return "sign-in";
  // The admin role opens every page: no restriction set in the panel (nor a content page's `access`) can lock the admins out.
  if (principal.roles.includes(ADMIN_ROLE)) return "allow";
  // A restriction set in the admin panel replaces the route table's rule (most permissive of the person's roles wins).
  if (principal.overridden?.has(route.path)) return principal.audiencePaths?.has(route.path) ? "allow" : "deny";
  if (access.kind === "signed-in") {
    // Someone whose every role is limited opens only the content pages those roles grant (account pages stay open).
    return principal.limited && route.reading && !principal.grantedPaths.has(route.path) ? "deny" : "allow";
  }
  if (access.roles.some((role) => principal.roles.includes(role))) return "allow";
  if (access.grantable && principal.grantedPaths.has(route.path)) return "allow";
  return "deny";
}

const signatures = new WeakMap<Principal, string>();
const sortedList = (values: Iterable<string> | undefined) => (values ? [...values].sort().join(",") : "");

/**
 * Everything an access decision reads from a principal, as one string (never the person): two
 * principals with the same signature get the same answer for every page. Computed once per principal.
 */
export function accessSignature(principal: Principal | null): string {
  if (!principal) return "anon";
  let signature = signatures.get(principal);
  if (signature === undefined) {
    signature = [
      sortedList(principal.roles),
      sortedList(principal.grantedPaths),
      principal.limited ? "limitado" : "",
      sortedList(principal.overridden),
      sortedList(principal.audiencePaths),
    ].join("|");
    signatures.set(principal, signature);
  }
  return signature;
}

export function isAdmin(principal: Principal | null): boolean {
  return principal?.roles.includes("admin") ?? false;
}

/**
 * Navigation entries a person sees. Signed-out visitors see public entries only; a role-gated
 * entry is also shown to a user whose custom role grants its page.
 */
export function visibleNav(principal: Principal | null): RouteRule[] {
  return ROUTES.filter((route) => {
    const nav = route.nav;
    if (!nav) return false;
    if (nav.roles.length === 0) return true;
    if (!principal || decideAccess(route, principal) !== "allow") return false;
    if (nav.roles.some((role) => principal.roles.includes(role))) return true;
    return route.access.kind === "roles" || principal.limited === true || principal.overridden?.has(route.path) === true;
  });
}

export type ReadingDirection = "previous" | "next";

/** The reading order's pages from `path` towards `direction`, nearest first; empty when `path` is not in it. */
function readingFrom(path: string, direction: ReadingDirection): RouteRule[] {
  const sequence = ROUTES.filter((route) => route.reading);
  const at = sequence.findIndex((route) => route.path === path);
  if (at === -1) return [];
  return direction === "previous" ? sequence.slice(0, at).reverse() : sequence.slice(at + 1);
}

/** The nearest page before or after `path` in the reading order that `principal` may open. */
export function readingNeighbour(path: string, direction: ReadingDirection, principal: Principal | null): RouteRule | undefined {
  return readingFrom(path, direction).find((route) => decideAccess(route, principal) === "allow");
}

/**
 * Every page that can be `path`'s neighbour for some reader: with limited roles and restrictions set
 * in the admin panel any page may be closed to someone, so every page towards `direction` is one.
 * Prerendered pages carry one link per candidate and the gate keeps the reader's (see personalize.ts).
 */
export function readingCandidates(path: string, direction: ReadingDirection): RouteRule[] {
  return readingFrom(path, direction);
}

/** Entries of the header's 'Mais' menu, in route-table order; each is shown only to who may open it. */
export function moreMenu(): RouteRule[] {
  return ROUTES.filter((route) => route.more);
}

/**
 * Pages an administrator may grant through a role's page checklist: the role-gated ones that can be
 * granted, and the content pages (which only a limited role's holders need granted).
 */
export function grantablePages(): RouteRule[] {
  return ROUTES.filter((route) => {
    const group = pageGroup(route);
    return group === "conteudo" || group === "restritas";
  });
}

/** Pages whose audience the admin panel may set ('Quem pode abrir esta página'). */
export function restrictablePages(): RouteRule[] {
  return ROUTES.filter((route) => pageGroup(route) !== null);
}

/** Default permissions of a system role: the pages the route table opens to it. */
export function defaultPermissions(role: SystemRole): string[] {
  return ROUTES.filter((route) => route.access.kind === "roles" && route.access.roles.includes(role)).map((route) => route.path);
}
