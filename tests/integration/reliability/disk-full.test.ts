/**
 * SQLite on a disk that fills up for real: the database folder is a small tmpfs, filled by another
 * file as a log or a backup would. `/readyz` answers 503 once the free space falls below
 * READINESS_MIN_FREE_MB and 200 again within seconds of space returning. Mounting needs root (as in
 * CI); where the mount is refused the test is skipped and says why. On PostgreSQL the disk is the
 * database server's (docs/decisions.md): its write probe is covered by database-write-failure.test.ts.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { onPostgres } from "../../support/pg";
import { freePort } from "../../../scripts/pg-cluster.mjs";
import { startBuiltServer } from "../../support/server";
import { createTestUser } from "../../support/users";

const TMPFS_MB = 24;
const FLOOR_MB = 4;

/** Mounts a tmpfs of TMPFS_MB, or says why it could not. */
function mountSmallDisk(): { dir: string } | { skipped: string } {
  if (onPostgres) return { skipped: "no PostgreSQL o disco é o do servidor do banco" };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-disco-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${TMPFS_MB}m`, "tmpfs", dir], { stdio: "pipe" });
    return { dir };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { skipped: `mount -t tmpfs recusado (${String((error as { stderr?: Buffer }).stderr ?? error).trim()}): precisa de root` };
  }
}

const disk = mountSmallDisk();
if ("skipped" in disk) console.warn(`disco cheio: teste pulado — ${disk.skipped}`);

afterAll(() => {
  if ("dir" in disk) {
    execFileSync("umount", ["-l", disk.dir]);
    fs.rmSync(disk.dir, { recursive: true, force: true });
  }
});

/** Writes `file` until the disk refuses (ENOSPC). */
function fillDisk(file: string): void {
  const block = Buffer.alloc(1024 * 1024, 1);
  const fd = fs.openSync(file, "w");
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    fs.closeSync(fd);
  }
  // Whatever is left is smaller than a block: fill it too.
  const rest = fs.openSync(file, "a");
  try {
    for (;;) fs.writeSync(rest, Buffer.alloc(4096, 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    fs.closeSync(rest);
  }
}

describe.skipIf("skipped" in disk)("SQLite on a full disk", () => {
  it("/readyz answers 503 while the disk is full and 200 within seconds of space returning", { timeout: 30_000 }, async () => {
    const dataDir = path.join((disk as { dir: string }).dir, "dados");
    fs.mkdirSync(dataDir);
    const server = await startBuiltServer({ READINESS_MIN_FREE_MB: String(FLOOR_MB) }, { dataDir });
    const readiness = async () => {
      const response = await fetch(`${server.url}/readyz`);
      return `${response.status} ${(await response.text()).trim()}`;
    };
    try {
      await expect.poll(readiness, { timeout: 5_000, interval: 100 }).toBe("200 pronto");
      const filler = path.join((disk as { dir: string }).dir, "enchimento");
      fillDisk(filler);
      const filledAt = Date.now();
      await expect.poll(readiness, { timeout: 3_000, interval: 100 }).toBe("503 não pronto: pouco espaço em disco");
      const noticedMs = Date.now() - filledAt;
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      fs.rmSync(filler);
      const freedAt = Date.now();
      await expect.poll(readiness, { timeout: 3_000, interval: 100 }).toBe("200 pronto");
      console.log(
        `disco cheio (tmpfs de ${TMPFS_MB} MB, mínimo ${FLOOR_MB} MB): /readyz 503 em ${noticedMs} ms; de volta a 200 em ${Date.now() - freedAt} ms depois de liberar espaço`,
      );
    } finally {
      await server.stop({ keepData: true });
    }
  });

  it("a restart on a full disk serves pages, says why in Portuguese, and /readyz answers 503", { timeout: 60_000 }, async () => {
    const dataDir = path.join((disk as { dir: string }).dir, "reinicio");
    fs.mkdirSync(dataDir);
    const first = await startBuiltServer({ READINESS_MIN_FREE_MB: String(FLOOR_MB) }, { dataDir });
    const person = await createTestUser(first.db, ["visualizador"], "disco");
    // Another connection stays open across the restart, as a backup or a report would: SQLite keeps
    // its shared-memory index (db.sqlite-shm), which a connection cannot create on a full disk.
    const other = new Database(path.join(dataDir, "db.sqlite"), { fileMustExist: true });
    other.prepare("select count(*) from users").get();
    await first.stop({ keepData: true });
    const filler = path.join((disk as { dir: string }).dir, "enchimento-reinicio");
    fillDisk(filler);
    try {
      // The test's own handle writes nothing on an already migrated and seeded database (openOnly).
      // Audit streaming is configured only now: its destination's row is a write at start (refused).
      const server = await startBuiltServer(
        {
          READINESS_MIN_FREE_MB: String(FLOOR_MB),
          AUDIT_WEBHOOK_URL: "http://127.0.0.1:9/auditoria",
          AUDIT_WEBHOOK_SECRET: "whsec_" + Buffer.from("segredo-de-teste-do-webhook-b1-disco-0123").toString("base64"),
        },
        { dataDir, openOnly: true },
      );
      try {
        const page = await fetch(`${server.url}/auth`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("<html");
        // A signed-in read too (the session check writes nothing it cannot do without).
        const faq = await fetch(`${server.url}/faq`, { headers: { cookie: `b1_session=${person.token}` } });
        expect(faq.status).toBe(200);
        const ready = await fetch(`${server.url}/readyz`);
        expect(`${ready.status} ${(await ready.text()).trim()}`).toBe("503 não pronto: pouco espaço em disco");
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        expect(server.output()).toMatch(/arquivo de pid .* não foi gravado \(disco cheio\)/);
        // Still serving after the first pid retry and a few delivery attempts.
        await delay(6_000);
        expect((await fetch(`${server.url}/auth`)).status).toBe(200);
        console.log(`reinício com o disco cheio:\n${server.output().trim()}`);
      } finally {
        // Space back before the stop: the stop itself must not depend on it, but the next test's start does.
        fs.rmSync(filler, { force: true });
        await server.stop({ keepData: true });
        expect(await server.exited).toBe(0);
      }
    } finally {
      fs.rmSync(filler, { force: true });
      other.close();
    }
  });

  it(
    "a restart on a full disk with nothing else holding the database opens it with the reserve and serves",
    { timeout: 60_000 },
    async () => {
      const dataDir = path.join((disk as { dir: string }).dir, "sem-outra-conexao");
      fs.mkdirSync(dataDir);
      const first = await startBuiltServer({ READINESS_MIN_FREE_MB: String(FLOOR_MB) }, { dataDir });
      await first.stop({ keepData: true });
      // The last connection closed: SQLite removed db.sqlite-shm, which a start must create again.
      expect(fs.existsSync(path.join(dataDir, "db.sqlite-shm"))).toBe(false);
      expect(fs.statSync(path.join(dataDir, "db.sqlite.reserva")).size).toBeGreaterThan(0);
      const filler = path.join((disk as { dir: string }).dir, "enchimento-sem-outra");
      fillDisk(filler);
      // Started by hand: the test's own handle would need the same index before the server.
      const port = String(await freePort());
      const child = spawn(process.execPath, ["--disable-proto=throw", "dist/gate/main.mjs"], {
        env: {
          ...process.env,
          PORT: port,
          HOST: "127.0.0.1",
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATABASE_PATH: path.join(dataDir, "db.sqlite"),
          DATABASE_URL: "",
          AUTH_ALLOWED_DOMAINS: "b1.example.com",
          READINESS_MIN_FREE_MB: String(FLOOR_MB),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let log = "";
      child.stdout!.on("data", (chunk) => (log += chunk));
      child.stderr!.on("data", (chunk) => (log += chunk));
      const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "")));
      try {
        await expect.poll(() => log.includes("no ar em ") || log.includes("Error"), { timeout: 20_000 }).toBe(true);
        expect(log).toMatch(/reserva de espaço .* foi liberada/);
        const url = `http://127.0.0.1:${port}`;
        expect((await fetch(`${url}/auth`)).status).toBe(200);
        const ready = await fetch(`${url}/readyz`);
        expect(`${ready.status} ${(await ready.text()).trim()}`).toBe("503 não pronto: pouco espaço em disco");
        console.log(`reinício com o disco cheio, sem outra conexão:\n${log.trim()}`);
      } finally {
        fs.rmSync(filler, { force: true });
        child.kill("SIGTERM");
        expect(await exited).toBe(0);
      }
    },
  );
});
