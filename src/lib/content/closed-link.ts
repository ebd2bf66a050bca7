/**
 * What an island's prop holding a same-site link becomes when the reader may not open that page
 * (withoutClosedLinks in personalize.ts): islands that render links (LinkAction) show it as the same
 * plain text the server's HTML got, so hydration finds what the server sent. Its own module, so an
 * island imports this string and not the route table.
 */
export const CLOSED_LINK = "#sem-acesso";
