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

  // An attacker's `next` after sign-in: whatever the spelling, the result stays on the portal.
  it.each([
    "/.//evil.example",
    "/./\\evil.example",
    "/x/..//evil.example",
    "/x/../\\evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/x/%2e%2e//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/ /evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " /templates",
    "data:text/html,x",
    "http://evil.example/",
    "///evil.example",
    "/\\/evil.example",
  ])("keeps %j on the portal", (hostile) => {
    const result = safeNextPath(hostile);
    expect(result.startsWith("/")).toBe(true);
    expect(result.startsWith("//")).toBe(false);
    expect(result.startsWith("/\\")).toBe(false);
    expect(new URL(result, "https://hub.b1.example").origin).toBe("https://hub.b1.example");
  });

  it.each([
    ["/%5cevil.example", "/%5cevil.example"],
    ["/x/../templates?aba=1", "/templates?aba=1"],
  ])("keeps the harmless same-origin path %s as %s", (raw, expected) => {
    expect(safeNextPath(raw)).toBe(expected);
  });
});
