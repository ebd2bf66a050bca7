import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { waitForLink } from "../../support/mail";
import { createTestUser } from "../../support/users";
import { scriptArgs } from "../../support/scripts";

const MESSAGE = "Esta senha está entre as mais usadas e é fácil de adivinhar. Escolha outra senha.";
/** Each passes the composition rule (upper, lower, digit, symbol) and is still among the most leaked. */
const COMMON = ["Password1!", "Senha@123", "Qwerty@123"];

let server: RunningServer;

function post(route: string, body: unknown) {
  return fetch(server.url + route, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_MULTIPLIER: "100" });
});
afterAll(() => server?.stop());

describe("common passwords are refused", () => {
  it.each(COMMON)("on sign-up: %s, with the message on the password field, and nobody is created", async (password) => {
    const email = `comum-${Date.now()}-${Math.random().toString(36).slice(2)}@b1.example.com`;
    const response = await post("/api/auth/sign-up", { fullName: "Maria Silva", email, password, confirmPassword: password });
    expect(response.status).toBe(400);
    expect((await response.json()).fields.password).toBe(MESSAGE);
    expect((await server.db.select().from(users).where(eq(users.email, email)))[0]!).toBeUndefined();
  });

  it("on sign-up an uncommon password still works", async () => {
    const password = "Jabuticaba@Azul7";
    const response = await post("/api/auth/sign-up", {
      fullName: "Maria Silva",
      email: `rara-${Date.now()}@b1.example.com`,
      password,
      confirmPassword: password,
    });
    expect(response.status).toBe(201);
  });

  it("on reset: the link keeps working for a better password", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    await post("/api/auth/reset-request", { email: user.email });
    const link = await waitForLink(path.join(server.dataDir, "outbox"), user.email, "mode=update-password");
    const token = new URL(link).searchParams.get("token")!;
    const refused = await post("/api/auth/update-password", { token, password: "Password1!", confirmPassword: "Password1!" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).fields.password).toBe(MESSAGE);
    const accepted = await post("/api/auth/update-password", { token, password: "Jabuticaba@Azul7", confirmPassword: "Jabuticaba@Azul7" });
    expect(accepted.status).toBe(200);
  });

  it("on the CLI: exit code ≠ 0, the message, and no user", async () => {
    const email = `cli-comum-${Date.now()}@b1.example.com`;
    const run = spawnSync(
      process.execPath,
      scriptArgs("scripts/user.ts", ["add", "--email", email, "--name", "Cli Comum", "--password", "Senha@123", "--role", "admin"]),
      { env: { ...process.env, DATABASE_PATH: path.join(server.dataDir, "db.sqlite") }, encoding: "utf8", timeout: 30_000 },
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(MESSAGE);
    expect((await server.db.select().from(users).where(eq(users.email, email)))[0]!).toBeUndefined();
  });
});
