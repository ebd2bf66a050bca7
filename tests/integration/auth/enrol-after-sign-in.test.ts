import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser } from "../../support/users";

// An admin who must turn on two-factor goes straight to enrolment after the password, with the
// page they asked for kept for afterwards — not to the home page, to be stopped at the next click.
let server: RunningServer;
beforeAll(async () => {
  server = await startBuiltServer({ TWO_FACTOR_KEY: "e".repeat(64), TWO_FACTOR_REQUIRED_ROLES: "admin" });
});
afterAll(() => server?.stop());

const signIn = (email: string, password: string, next?: string) =>
  fetch(`${server.url}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email, password, ...(next ? { next } : {}) }),
  });

describe("the sign-in of someone who must enrol", () => {
  it("sends an admin without a second factor to enrolment, keeping where they were going", async () => {
    const admin = await createTestUser(server.db, ["admin"], "deve-ativar");
    expect(await (await signIn(admin.email, admin.password, "/admin-panel")).json()).toEqual({
      ok: true,
      next: "/conta/dois-fatores?next=%2Fadmin-panel",
    });
    expect(await (await signIn(admin.email, admin.password)).json()).toEqual({ ok: true, next: "/conta/dois-fatores?next=%2F" });
  });

  it("leaves everyone else where they were going", async () => {
    const reader = await createTestUser(server.db, ["visualizador"], "nao-precisa");
    expect(await (await signIn(reader.email, reader.password, "/faq")).json()).toEqual({ ok: true, next: "/faq" });
  });
});
