/**
 * The HTML of a prerendered page as the search index reads it (scripts/build-search.ts).
 */
import { compileTemplate, type Segment } from "../content/personalize.ts";

/** Neighbouring inline elements render as separate words but sit in the HTML with nothing between them: the index gets a space. */
export function separateInlineWords(html: string): string {
  return html.replace(/(<\/(?:span|a|strong|em|b|i|small|mark|code|abbr|time|li|p|h[1-6]|div|dt|dd|td|th)>)(?=<)/g, "$1 ");
}

/**
 * The HTML Pagefind reads for a page: the gate's per-request blocks (`<!--b1:if:COND-->…<!--b1:fi-->`,
 * src/lib/content/personalize.ts) kept only when every signed-in reader sees them (`user`) — a block
 * for visitors or for those who may open another page (a teaser of /comite-ia on /) is not the page's
 * text for everyone — and the index-only blocks (`<template data-search-only>`, e.g. every phase of
 * the trail, inert in the browser) opened for the index.
 */
export function searchableHtml(html: string): string {
  const everyReader = (segments: readonly Segment[]): string =>
    segments.map((segment) => ("when" in segment ? (segment.when === "user" ? everyReader(segment.children) : "") : segment.text)).join("");
  return everyReader(compileTemplate(html)).replace(
    /<template data-search-only(?:="")?>([\s\S]*?)<\/template>/g,
    (_, inner: string) => `<div data-search-only>${inner}</div>`,
  );
}
