/** The search dialog's reporter: one beacon per finished search, never one per keystroke. */
import { describe, expect, it } from "vitest";
import { createSearchReporter, PAUSE_MS, type SearchBeacon } from "../../../src/lib/insights/search-beacon";

function setUp() {
  let time = 0;
  const sent: SearchBeacon[] = [];
  const reporter = createSearchReporter(
    (body) => sent.push(body),
    () => time,
  );
  return { reporter, sent, wait: (ms: number) => (time += ms) };
}

describe("search reporter", () => {
  it("sends nothing while the person types, then the paused query when another one starts", () => {
    const { reporter, sent, wait } = setUp();
    for (const prefix of ["c", "ca", "can", "canv", "canva", "canvas"]) {
      reporter.searched(prefix, 3);
      wait(200);
    }
    expect(sent).toEqual([]);
    wait(PAUSE_MS);
    reporter.searched("canvas", 3);
    reporter.searched("canvas b", 1);
    expect(sent).toEqual([{ consulta: "canvas", resultados: 3, aberto: null }]);
  });

  it("sends an opened result once with its position, and a closed dialog only after a pause", () => {
    const { reporter, sent, wait } = setUp();
    reporter.searched("raci", 5);
    reporter.opened(2);
    reporter.closed();
    expect(sent).toEqual([{ consulta: "raci", resultados: 5, aberto: 2 }]);
    reporter.searched("x", 0);
    reporter.closed();
    expect(sent).toHaveLength(1);
    reporter.searched("glossário", 0);
    wait(PAUSE_MS);
    reporter.closed();
    reporter.closed();
    expect(sent.at(-1)).toEqual({ consulta: "glossário", resultados: 0, aberto: null });
    expect(sent).toHaveLength(2);
  });
});
