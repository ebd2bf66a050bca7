import { test as base, expect } from "@playwright/test";
import { SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { connectDatabase, type Db } from "../../src/lib/server/data/db";
import { createTestUser, type TestUser } from "../support/users";

let db: Db | undefined;

/** The database of the server under test (see playwright.config.ts), migrated and seeded by its start. */
export function e2eDb(): Db {
  db ??= connectDatabase(process.env.E2E_DATABASE_PATH!);
  return db;
}

export const test = base.extend<{
  /** Creates a confirmed user with these roles and signs the page's browser context in as them. */
  loginAs: (roles: string[]) => Promise<TestUser>;
  /** Collects console errors of the page; assert `expect(consoleErrors).toEqual([])`. */
  consoleErrors: string[];
}>({
  loginAs: async ({ context, baseURL }, use) => {
    await use(async (roles) => {
      const user = await createTestUser(e2eDb(), roles);
      await context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: baseURL!, httpOnly: true, sameSite: "Lax" }]);
      return user;
    });
  },
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(errors);
  },
});

export { expect };
