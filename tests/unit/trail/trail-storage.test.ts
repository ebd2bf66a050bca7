import { describe, expect, it } from "vitest";
import { TRAIL_PHASE_IDS, emptyTrail, setProjectName } from "../../../src/lib/trail/trail";
import { forgetTrailsExcept, readOwnTrail, writeOwnTrail, type TrailStore } from "../../../src/lib/trail/storage";

function memoryStore(initial: Record<string, string> = {}): TrailStore & { entries: Map<string, string> } {
  const entries = new Map(Object.entries(initial));
  return {
    entries,
    get length() {
      return entries.size;
    },
    key: (index) => [...entries.keys()][index] ?? null,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}

describe("the trail's browser copy per account", () => {
  it("one account never reads another's copy", () => {
    const store = memoryStore();
    writeOwnTrail(store, "ana", setProjectName(emptyTrail(), "Projeto da Ana", 10));
    expect(readOwnTrail(store, "ana", TRAIL_PHASE_IDS).projectName).toBe("Projeto da Ana");
    expect(readOwnTrail(store, "bruno", TRAIL_PHASE_IDS)).toEqual(emptyTrail());
  });

  it("forgets the other accounts' and the older unkeyed entries, or everything on sign-out", () => {
    const store = memoryStore({ "b1-trilha:project-name": "antigo", "outra-chave": "fica" });
    writeOwnTrail(store, "ana", setProjectName(emptyTrail(), "Ana", 10));
    writeOwnTrail(store, "bruno", setProjectName(emptyTrail(), "Bruno", 10));
    forgetTrailsExcept(store, "bruno");
    expect([...store.entries.keys()].filter((key) => key.startsWith("b1-trilha:")).every((key) => key.startsWith("b1-trilha:bruno:"))).toBe(
      true,
    );
    expect(readOwnTrail(store, "bruno", TRAIL_PHASE_IDS).projectName).toBe("Bruno");
    forgetTrailsExcept(store, null);
    expect([...store.entries.keys()]).toEqual(["outra-chave"]);
  });
});
