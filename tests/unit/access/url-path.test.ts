import { describe, expect, it } from "vitest";
import { normalizePath, safeNextPath } from "../../../src/lib/url-path";

describe("normalizePath", () => {
  it.each([
    ["/templates", "/templates"],
    ["/templates/", "/templates"],
    ["//templates//", "/templates"],
    ["/templates/index.html", "/templates"],
    ["/templates%2Findex.html", "/templates"],
    ["/x/../templates", "/templates"],
    ["/%2e%2e/templates", "/templates"],
    ["/./templates/.", "/templates"],
    ["/templates\\", "/templates"],
    ["/index.html", "/"],
    ["/", "/"],
    ["/../../etc/passwd", "/etc/passwd"],
  ])("%s → %s", (raw, expected) => {
    expect(normalizePath(raw)).toBe(expected);
  });

  it("decodes once only", () => {
    expect(normalizePath("/templates%252Findex.html")).toBe("/templates%2Findex.html");
  });

  it("rejects malformed encodings and NUL", () => {
    expect(normalizePath("/%E0%A4%A")).toBeNull();
    expect(normalizePath("/templates%00")).toBeNull();
  });
});

describe("safeNextPath", () => {
  it.each([
    ["/templates?x=1#a", "/templates?x=1#a"],
    ["//evil.example.com/x", "/"],
    ["/\\evil.example.com", "/"],
    ["https://evil.example.com", "/"],
    ["javascript:alert(1)", "/"],
    [null, "/"],
  ])("%s → %s", (raw, expected) => {
    expect(safeNextPath(raw)).toBe(expected);
  });
});
