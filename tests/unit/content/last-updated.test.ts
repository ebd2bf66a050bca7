import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cachedLastUpdated, editUrl, formatUpdated, lastUpdated } from "../../../src/lib/server/content/last-updated";

describe("'Atualizado em' and 'Editar esta página'", () => {
  it("dates a committed file by its last commit and any other file by its modification time", () => {
    const committed = lastUpdated("content/faq.yaml");
    expect(committed.getTime()).toBeLessThanOrEqual(Date.now());
    const loose = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "b1-date-")), "nova.mdx");
    fs.writeFileSync(loose, "x");
    const when = new Date("2025-02-03T12:00:00Z");
    fs.utimesSync(loose, when, when);
    expect(lastUpdated(loose).toISOString()).toBe(when.toISOString());
  });

  it("writes the date in pt-BR in the display time zone", () => {
    expect(formatUpdated(new Date("2026-03-01T02:00:00Z"), "America/Sao_Paulo")).toBe("28 de fevereiro de 2026");
  });

  it("links to the file in the editor only when CONTENT_EDIT_URL is set", () => {
    expect(editUrl("content/paginas/x.mdx", "")).toBeNull();
    expect(editUrl("content/paginas/x.mdx", "https://git.example.com/b1/hub/-/edit/main")).toBe(
      "https://git.example.com/b1/hub/-/edit/main/content/paginas/x.mdx",
    );
  });
});

describe("lastUpdated's cache (astro dev renders a page on every visit)", () => {
  it("asks git once per file until the file or the repository's index changes", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-date-cache-"));
    const file = path.join(root, "pagina.mdx");
    const index = path.join(root, "index");
    fs.writeFileSync(file, "x");
    fs.writeFileSync(index, "i");
    const asked: string[] = [];
    const commits = [new Date("2026-01-01T00:00:00Z"), new Date("2026-02-01T00:00:00Z"), new Date("2026-03-01T00:00:00Z")];
    const dated = cachedLastUpdated((name) => (asked.push(name), commits[asked.length - 1]!), index);
    const touch = (name: string, seconds: number) => fs.utimesSync(name, seconds, seconds);
    touch(file, 1_000);
    touch(index, 1_000);

    expect(dated(file)).toEqual(commits[0]);
    expect(dated(file)).toEqual(commits[0]);
    expect(asked).toHaveLength(1);
    touch(index, 2_000); // a commit, checkout or pull
    expect(dated(file)).toEqual(commits[1]);
    touch(file, 2_000); // the file saved
    expect(dated(file)).toEqual(commits[2]);
    expect(dated(file)).toEqual(commits[2]);
    expect(asked).toHaveLength(3);
  });

  it("falls back to the file's time when git has no date, outside a checkout too", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "b1-date-loose-")), "nova.mdx");
    fs.writeFileSync(file, "x");
    const when = new Date("2025-02-03T12:00:00Z");
    fs.utimesSync(file, when, when);
    expect(cachedLastUpdated(() => null, null)(file).toISOString()).toBe(when.toISOString());
  });
});
