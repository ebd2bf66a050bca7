import { decideAccess, findRoute, isAdmin, visibleNav, type Principal } from "./routes.ts";

/**
 * Prerendered HTML carries conditional blocks `<!--b1:if:COND-->…<!--b1:fi-->` (written by the
 * `Only` component). At request time the gate keeps the blocks whose condition holds for the
 * principal. Conditions: `anon`, `user`, `admin`, `nav:<path>` (header entry visible),
 * `page:<path>` (the user may open that page).
 */
export type Condition = "anon" | "user" | "admin" | `nav:${string}` | `page:${string}`;

const OPEN = "<!--b1:if:";
const CLOSE = "<!--b1:fi-->";

export type Segment = { text: string } | { when: Condition; text: string };

/** Splits a page once (at start) into static text and conditional blocks. Blocks do not nest. */
export function compileTemplate(html: string): Segment[] {
  const segments: Segment[] = [];
  let index = 0;
  while (index < html.length) {
    const open = html.indexOf(OPEN, index);
    if (open === -1) break;
    const condEnd = html.indexOf("-->", open);
    const close = html.indexOf(CLOSE, condEnd);
    if (condEnd === -1 || close === -1) break;
    if (open > index) segments.push({ text: html.slice(index, open) });
    segments.push({ when: html.slice(open + OPEN.length, condEnd) as Condition, text: html.slice(condEnd + 3, close) });
    index = close + CLOSE.length;
  }
  if (index < html.length) segments.push({ text: html.slice(index) });
  return segments;
}

export function holds(condition: Condition, principal: Principal | null): boolean {
  if (condition === "anon") return principal === null;
  if (condition === "user") return principal !== null;
  if (condition === "admin") return isAdmin(principal);
  if (condition.startsWith("nav:")) {
    const path = condition.slice(4);
    return visibleNav(principal).some((route) => route.path === path);
  }
  if (condition.startsWith("page:")) {
    const route = findRoute(condition.slice(5));
    return route !== undefined && decideAccess(route, principal) === "allow";
  }
  return false;
}

/** The conditions of a template that hold, as a compact key (for caching rendered variants). */
export function variantKey(segments: readonly Segment[], principal: Principal | null): string {
  let key = "";
  for (const segment of segments) if ("when" in segment) key += holds(segment.when, principal) ? "1" : "0";
  return key;
}

export function renderTemplate(segments: readonly Segment[], principal: Principal | null): string {
  let html = "";
  for (const segment of segments) {
    if (!("when" in segment) || holds(segment.when, principal)) html += segment.text;
  }
  return html;
}
