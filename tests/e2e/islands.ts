import { expect, type Locator } from "@playwright/test";

/** Islands hydrate on load or when visible: scroll there and wait until Astro has hydrated it. */
export async function hydrated(locator: Locator): Promise<Locator> {
  await locator.scrollIntoViewIfNeeded();
  await expect(locator.locator("xpath=ancestor::astro-island[1]")).not.toHaveAttribute("ssr", /.*/);
  return locator;
}
