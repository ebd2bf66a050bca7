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

  function devContext(root: string, parseData: (input: { data: unknown }) => Promise<unknown> = async ({ data }) => data) {
    const entries = new Map<string, unknown>();
    const watcher = Object.assign(new EventEmitter(), { add: () => {} });
    const context = {
      config: { root: pathToFileURL(root + "/") },
      store: { clear: () => entries.clear(), set: ({ id, data }: { id: string; data: unknown }) => entries.set(id, data) },
      parseData,
      watcher,
      logger: { info: () => {}, error: () => {} },
    };
    return { entries, watcher, context };
  }

  function yamlFile(text: string) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-yaml-"));
    const file = path.join(root, "content", "itens.yaml");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, text);
    return { root, file };
  }

  it("reads again a save made while the collections are still loading (the dev server already answers)", async () => {
    const { root, file } = yamlFile("- id: a\n  titulo: Antes\n");
    let release!: () => void;
    const firstParse = new Promise<void>((resolve) => (release = resolve));
    let parses = 0;
    const { entries, watcher, context } = devContext(root, async ({ data }) => {
      if (parses++ === 0) await firstParse;
      return data;
    });
    const loading = yamlLoader("content/itens.yaml").load(context as never);
    await vi.waitFor(() => expect(parses).toBe(1)); // the first read is done, its parse is under way
    fs.writeFileSync(file, "- id: a\n  titulo: Depois\n");
    watcher.emit("change", file);
    await new Promise((resolve) => setTimeout(resolve, 50)); // a reload not kept in order would be done by now
    release();
    await loading;
    await vi.waitFor(() => expect(entries.get("a")).toMatchObject({ titulo: "Depois" }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(entries.get("a")).toMatchObject({ titulo: "Depois" }); // not overwritten by the first, older read
  });

  it("still re-reads after Astro drops its loaders' listeners and loads everything again, with one listener", async () => {
    const { root, file } = yamlFile("- id: a\n  titulo: Antes\n");
    const { entries, watcher, context } = devContext(root);
    const loader = yamlLoader("content/itens.yaml");
    await loader.load(context as never);
    watcher.removeAllListeners("change"); // what Astro does before a full reload (a changed content config)
    await loader.load(context as never);
    await loader.load(context as never); // a partial reload of this loader: no second listener
    expect(watcher.listenerCount("change")).toBe(1);
    fs.writeFileSync(file, "- id: a\n  titulo: Depois\n");
    watcher.emit("change", file);
    await vi.waitFor(() => expect(entries.get("a")).toMatchObject({ titulo: "Depois" }));
  });
});
