/**
 * The version of each page as it is served: the feedback form carries it (`data-opiniao-versao`, see
 * FeedbackForm.astro), so a vote names the version its reader saw and the server refuses any other.
 */
import { renderTemplate } from "../../content/personalize.ts";
import type { PageTemplate } from "../content/static-files.ts";

const VERSION_ATTRIBUTE = /data-opiniao-versao="([^"]{1,40})"/;

/** Page path → version, for every served page that has a feedback form. */
export function pageVersions(pages: ReadonlyMap<string, PageTemplate>): Map<string, string> {
  const versions = new Map<string, string>();
  for (const [path, page] of pages) {
    // The form is outside any role-conditional block: the signed-out rendering carries it (nothing is cached).
    const html = renderTemplate(page.segments, null);
    const version = VERSION_ATTRIBUTE.exec(html)?.[1];
    if (version) versions.set(path, version);
  }
  return versions;
}
