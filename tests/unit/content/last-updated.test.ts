import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { editUrl, formatUpdated, lastUpdated } from "../../../src/lib/server/content/last-updated";

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
