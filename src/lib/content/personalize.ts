import { CLOSED_LINK } from "./closed-link.ts";
import {
  decideAccess,
  findPageRoute,
  findRoute,
  isAdmin,
  readingNeighbour,
  visibleNav,
  type Principal,
  type ReadingDirection,
} from "../routes.ts";

/**
 * Prerendered HTML carries conditional blocks `<!--b1:if:COND-->…<!--b1:fi-->` (written by the
 * `Only` component). At request time the gate keeps the blocks whose condition holds for the
 * principal. Conditions: `anon`, `user`, `admin`, `role:<a,b>` (holds one of those roles), `nav:<path>` (header entry visible),
 * `page:<path>` (the user may open that page), `previous:<here>><path>` and `next:<here>><path>` (that
 * page is the nearest one before or after `here` in the reading order that the user may open).
 */
export type Condition =
  "anon" | "user" | "admin" | `role:${string}` | `nav:${string}` | `page:${string}` | `${ReadingDirection}:${string}>${string}`;

const OPEN = "<!--b1:if:";
const CLOSE = "<!--b1:fi-->";

export type Segment = { text: string } | { when: Condition; children: Segment[] };

/** Parses a page once (at start) into static text and (possibly nested) conditional blocks. */
export function compileTemplate(html: string): Segment[] {
  const root: Segment[] = [];
  const stack: Segment[][] = [root];
  let index = 0;
  while (index < html.length) {
    const open = html.indexOf(OPEN, index);
    const close = html.indexOf(CLOSE, index);
    const next = open !== -1 && (close === -1 || open < close) ? "open" : close !== -1 ? "close" : null;
    const at = next === "open" ? open : close;
    if (next === null || at === -1) break;
    const current = stack.at(-1)!;
    if (at > index) current.push({ text: html.slice(index, at) });
    if (next === "open") {
      const condEnd = html.indexOf("-->", open);
      const block: Segment = { when: html.slice(open + OPEN.length, condEnd) as Condition, children: [] };
      current.push(block);
      stack.push(block.children);
      index = condEnd + 3;
    } else {
      if (stack.length > 1) stack.pop();
      index = close + CLOSE.length;
    }
  }
  if (index < html.length) stack.at(-1)!.push({ text: html.slice(index) });
  return root;
}

export function meetsCondition(condition: Condition, principal: Principal | null): boolean {
  if (condition === "anon") return principal === null;
  if (condition === "user") return principal !== null;
  if (condition === "admin") return isAdmin(principal);
  // `role:a,b`: the person holds one of these system roles ('Editar esta página', EDIT_ROLES).
  if (condition.startsWith("role:"))
    return (
      principal !== null &&
      condition
        .slice(5)
        .split(",")
        .some((role) => principal.roles.includes(role))
    );
  if (condition.startsWith("nav:")) {
    const path = condition.slice(4);
    return visibleNav(principal).some((route) => route.path === path);
  }
  if (condition.startsWith("page:")) {
    const route = findRoute(condition.slice(5));
    return route !== undefined && decideAccess(route, principal) === "allow";
  }
  const reading = /^(previous|next):([^>]+)>(.+)$/.exec(condition);
  if (reading) return readingNeighbour(reading[2]!, reading[1] as ReadingDirection, principal)?.path === reading[3];
  return false;
}

export function renderTemplate(segments: readonly Segment[], principal: Principal | null): string {
  let html = "";
  for (const segment of segments) {
    if (!("when" in segment)) html += segment.text;
    else if (meetsCondition(segment.when, principal)) html += renderTemplate(segment.children, principal);
  }
  return html;
}

/** `<a … href="/path…" …>…</a>` with a same-site path (the portal's own links; no nested anchors in HTML). */
const SITE_LINK = /<a\b([^>]*?)\shref="(\/[^"#?]*)([#?][^"]*)?"([^>]*)>([\s\S]*?)<\/a>/g;

/** An `<astro-island … props="…">` attribute (Astro's serialised props, quotes written as `&quot;`). */
const ISLAND_PROPS = /(<astro-island\b[^>]*?\sprops=")([^"]*)"/g;
/** A string prop (`[0,"…"]` in Astro's serialisation) holding a same-site path. */
const PROP_SITE_PATH = /\[0,&quot;(\/[^&"#?]*)((?:[#?](?:(?!&quot;)[^"])*)?)&quot;\]/g;

function closedFor(path: string, principal: Principal): boolean {
  const route = findPageRoute(path === "/" ? "/" : path.replace(/\/$/, ""));
  return route !== undefined && decideAccess(route, principal) !== "allow";
}

/**
 * A signed-in reader never gets a link to a page they may not open (an inline link in the text, a
 * card, a 'Veja também', a template card's 'Abrir'): the anchor becomes plain text, and a prop of an
 * island that holds such a path (the island would render the link when it hydrates) becomes
 * CLOSED_LINK. Runs once per rendered variant (the gate caches each access set's page), so it costs
 * nothing per request.
 */
export function withoutClosedLinks(html: string, principal: Principal | null): string {
  if (!principal) return html;
  const anchors = html.replace(SITE_LINK, (anchor, _before: string, path: string, _rest: string, _after: string, text: string) =>
    closedFor(path, principal) ? `<span>${text}</span>` : anchor,
  );
  return anchors.replace(
    ISLAND_PROPS,
    (_whole, start: string, props: string) =>
      `${start}${props.replace(PROP_SITE_PATH, (value, path: string) => (closedFor(path, principal) ? `[0,&quot;${CLOSED_LINK}&quot;]` : value))}"`,
  );
}
