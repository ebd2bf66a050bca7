import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EventEmitter } from "node:events";
import { pathToFileURL } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { yamlLoader } from "../../../src/collections/yaml-loader";

async function load(yamlText: string) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-yaml-"));
  fs.mkdirSync(path.join(root, "content"));
  fs.writeFileSync(path.join(root, "content", "itens.yaml"), yamlText);
  const entries = new Map<string, unknown>();
  const context = {
    config: { root: pathToFileURL(root + "/") },
    store: { clear: () => entries.clear(), set: ({ id, data }: { id: string; data: unknown }) => entries.set(id, data) },
    parseData: async ({ data }: { data: unknown }) => data,
  };
  // The loader only touches the parts of Astro's context given here.
  await yamlLoader("content/itens.yaml").load(context as never);
  return entries;
}

describe("yamlLoader", () => {
  it("loads a list by id and a single document by file name", async () => {
    expect([...(await load("- id: a\n  x: 1\n- id: b\n  x: 2\n")).keys()]).toEqual(["a", "b"]);
    expect([...(await load("titulo: Olá\n")).keys()]).toEqual(["itens"]);
  });

  it("gives each list item its place in the file (Astro's store sorts entries by id)", async () => {
    const entries = await load("- id: zeta\n- id: alfa\n");
    expect(entries.get("zeta")).toMatchObject({ position: 0 });
    expect(entries.get("alfa")).toMatchObject({ position: 1 });
  });

  it("fails on a duplicate id, naming the file and the id", async () => {
    await expect(load("- id: a\n- id: a\n")).rejects.toThrow('content/itens.yaml: id duplicado "a" (item 2)');
  });

  it("fails on invalid YAML and on an item without id", async () => {
    await expect(load("- id: a\n  x: [1, 2\n")).rejects.toThrow(/content\/itens.yaml: YAML inválido/);
    await expect(load("- nome: sem id\n")).rejects.toThrow('content/itens.yaml: o item 1 não tem o campo "id"');
  });
});

describe("yamlLoader under astro dev", () => {
  it("re-reads the file when the watcher reports a change, and keeps the last good data on a broken save", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-yaml-"));
    const file = path.join(root, "content", "itens.yaml");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, "- id: a\n  titulo: Antes\n");
    const entries = new Map<string, unknown>();
    const watcher = Object.assign(new EventEmitter(), { add: () => {} });
    const context = {
      config: { root: pathToFileURL(root + "/") },
      store: { clear: () => entries.clear(), set: ({ id, data }: { id: string; data: unknown }) => entries.set(id, data) },
      parseData: async ({ data }: { data: unknown }) => data,
      watcher,
      logger: { info: () => {}, error: () => {} },
    };
    await yamlLoader("content/itens.yaml").load(context as never);
    expect(entries.get("a")).toMatchObject({ titulo: "Antes" });

    fs.writeFileSync(file, "- id: a\n  titulo: Depois\n");
    watcher.emit("change", file);
    await vi.waitFor(() => expect(entries.get("a")).toMatchObject({ titulo: "Depois" }));

    fs.writeFileSync(file, "- id: a\n  titulo: [quebrado\n");
    watcher.emit("change", file);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(entries.get("a")).toMatchObject({ titulo: "Depois" });
  });
});
