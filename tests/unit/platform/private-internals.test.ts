/**
 * The four places that lean on another project's internals (issue 65, item 4; docs/decisions.md). Each
 * dependency is pinned to the exact version checked here, and each test fails with a Portuguese message
 * naming the upgrade to check when the internal changes shape, instead of the portal breaking silently.
 */
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { closeAfterAnswer } from "../../../src/server/body-limit.ts";
import { lastResortCollection } from "../../../src/server/idle-memory.ts";
import { knownWalIndexHeader, WAL_INDEX_HEADER_BYTES } from "../../../src/lib/server/data/change-counter.ts";

const require = createRequire(import.meta.url);
const manifest = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const installed = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

function pinned(name: string): string {
  return manifest.dependencies[name] ?? manifest.devDependencies[name] ?? "";
}

describe("private internals, pinned and checked", () => {
  it("Astro: MutableDataStore keeps the methods scripts/content/store-changes.ts wraps", () => {
    expect(pinned("astro"), "astro deve estar fixado numa versão exata em package.json (sem ^ ou ~)").toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed("astro"), "a versão instalada do Astro difere da fixada em package.json: rode npm install").toBe(pinned("astro"));
    const upgrade = `O Astro ${installed("astro")} mudou o MutableDataStore interno (astro/dist/content/mutable-data-store.js): confira scripts/content/store-changes.ts antes de atualizar o Astro`;
    const file = path.join(path.dirname(require.resolve("astro/package.json")), "dist", "content", "mutable-data-store.js");
    expect(fs.existsSync(file), upgrade).toBe(true);
    const { MutableDataStore } = require(file) as { MutableDataStore?: { prototype: Record<string, unknown> } };
    for (const method of ["set", "delete", "clear", "clearAll", "writeToDisk", "writeModuleImports", "addModuleImport"])
      expect(typeof MutableDataStore?.prototype[method], `${upgrade} (método ${method})`).toBe("function");
  });

  it("Vite: the hot channel scripts/content/dev-feedback.ts wraps is the pinned Vite's", async () => {
    expect(pinned("vite"), "vite deve estar fixado numa versão exata em package.json (sem ^ ou ~)").toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed("vite"), "a versão instalada do Vite difere da fixada em package.json: rode npm install").toBe(pinned("vite"));
    const vite = await import("vite");
    expect(
      typeof vite.isRunnableDevEnvironment,
      `O Vite ${installed("vite")} mudou os ambientes de desenvolvimento: confira rerunStoreImporters em scripts/content/dev-feedback.ts (hot.send) antes de atualizar o Vite`,
    ).toBe("function");
  });

  it("SQLite: the -shm WAL-index header the session cache reads is the format it knows", () => {
    expect(pinned("better-sqlite3"), "better-sqlite3 deve estar fixado numa versão exata em package.json (sem ^ ou ~)").toMatch(
      /^\d+\.\d+\.\d+$/,
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-shm-"));
    const file = path.join(dir, "b1.sqlite");
    const writer = new Database(file);
    const reader = new Database(file);
    try {
      writer.pragma("journal_mode = WAL");
      writer.exec("create table t (x integer)");
      reader.prepare("select count(*) from t").get();
      const version = String(reader.prepare("select sqlite_version()").pluck().get());
      const upgrade = `O SQLite ${version} (better-sqlite3 ${installed("better-sqlite3")}) mudou o cabeçalho do índice do WAL em <banco>-shm: confira src/lib/server/data/change-counter.ts antes de atualizar o better-sqlite3 (o portal volta sozinho ao PRAGMA data_version, mais lento)`;
      const read = () => {
        const header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
        const fd = fs.openSync(`${file}-shm`, "r");
        try {
          fs.readSync(fd, header, 0, WAL_INDEX_HEADER_BYTES, 0);
        } finally {
          fs.closeSync(fd);
        }
        return header;
      };
      const before = read();
      expect(knownWalIndexHeader(before), upgrade).toBe(true);
      // Another version, or a header not yet initialised: the counter falls back to PRAGMA data_version.
      const other = Buffer.from(before);
      other.writeUInt32LE(other.readUInt32LE(0) + 1, 0);
      expect(knownWalIndexHeader(other)).toBe(false);
      expect(knownWalIndexHeader(Buffer.alloc(WAL_INDEX_HEADER_BYTES))).toBe(false);
      writer.prepare("insert into t values (1)").run();
      expect(read().equals(before), `${upgrade} (um commit não mudou o cabeçalho)`).toBe(false);
    } finally {
      reader.close();
      writer.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Node: a Connection: close answer still ends through socket.destroySoon, which closeAfterAnswer replaces", async () => {
    const upgrade = `O Node ${process.version} não fecha mais uma resposta com Connection: close por socket.destroySoon: confira closeAfterAnswer em src/server/body-limit.ts antes de atualizar o Node (o 413 de um corpo grande pode virar um reset)`;
    expect(typeof Reflect.get(net.Socket.prototype, "destroySoon"), upgrade).toBe("function");
    let replacedCalled = false;
    const server = http.createServer((req, res) => {
      closeAfterAnswer(req.socket);
      const ours = Reflect.get(req.socket, "destroySoon") as () => void;
      Reflect.set(req.socket, "destroySoon", () => {
        replacedCalled = true;
        ours();
      });
      res.writeHead(413, { Connection: "close", "Content-Length": "0" });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1", () =>
          socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc"),
        );
        let text = "";
        socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
        socket.on("end", () => {
          socket.destroy();
          resolve(text);
        });
        socket.on("error", reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 413/);
      expect(replacedCalled, upgrade).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("V8: --expose-gc turned on for one context still gives the last-resort collection, and no global gc", () => {
    const upgrade = `O Node ${process.version} (V8 ${process.versions.v8}) mudou o gc() exposto por --expose-gc: confira lastResortCollection em src/server/idle-memory.ts antes de atualizar o Node`;
    let collect: (() => void) | undefined;
    expect(() => (collect = lastResortCollection()), upgrade).not.toThrow();
    expect(() => collect!(), upgrade).not.toThrow();
    expect(typeof (globalThis as { gc?: unknown }).gc, upgrade).toBe("undefined");
    expect(vm.runInNewContext("typeof gc"), `${upgrade} (a opção não foi desligada depois)`).toBe("undefined");
  });
});
