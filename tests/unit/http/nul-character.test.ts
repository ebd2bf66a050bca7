import { describe, expect, it } from "vitest";
import { hasNulCharacter } from "../../../src/lib/server/http/http";

const check = (text: string) => hasNulCharacter(text, JSON.parse(text));

describe("hasNulCharacter", () => {
  it("finds a NUL in a value, an array item or a key, at any depth", () => {
    expect(check('{"a":"x\\u0000"}')).toBe(true);
    expect(check('{"a":["ok","\\u0000"]}')).toBe(true);
    expect(check('{"a":{"b\\u0000":1}}')).toBe(true);
    expect(check('"\\u0000"')).toBe(true);
  });

  it("leaves alone a body that only spells the escape (an escaped backslash before u0000) or has none", () => {
    expect(check('{"a":"\\\\u0000"}')).toBe(false);
    expect(check('{"a":"texto","b":[1,null,true]}')).toBe(false);
    expect(check("42")).toBe(false);
  });
});
