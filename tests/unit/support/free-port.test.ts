import net from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralPortRange, freePort, portBlock } from "../../../scripts/pg-cluster.mjs";

// A suite once died on EADDRINUSE: freePort had asked the kernel for an ephemeral port, closed it,
// and before the test's server listened the port was taken as the local end of an outgoing connection.
describe("freePort (ports for test servers)", () => {
  it("hands out ports below the kernel's ephemeral range, so no outgoing connection can take one before the server listens", async () => {
    const { low } = ephemeralPortRange();
    const ports = [];
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    for (const port of ports) expect(port).toBeLessThan(low);
    expect(new Set(ports).size).toBe(ports.length);
  });

  it("gives each vitest worker its own block and everything else block 0", () => {
    const blocks = ["1", "2", "3"].map((id) => portBlock(id)!);
    const other = portBlock(undefined)!;
    const all = [other, ...blocks];
    for (const [i, a] of all.entries()) {
      for (const b of all.slice(i + 1)) expect(a.end <= b.start || b.end <= a.start).toBe(true);
    }
    expect(Math.max(...all.map((b) => b.end))).toBeLessThanOrEqual(ephemeralPortRange().low);
  });

  it("skips a port something already listens on", async () => {
    const first = await freePort();
    const block = portBlock(process.env.VITEST_POOL_ID)!;
    // Occupy the next few ports of the block; the next hand-out must be none of them.
    const held: net.Server[] = [];
    for (let p = first + 1; p < Math.min(first + 4, block.end); p++) {
      const server = net.createServer();
      await new Promise<void>((resolve) => server.once("error", () => resolve()).listen(p, "127.0.0.1", () => resolve()));
      held.push(server);
    }
    const heldPorts = held.map((s) => (s.address() as net.AddressInfo | null)?.port).filter(Boolean);
    const next = await freePort();
    expect(heldPorts).not.toContain(next);
    for (const s of held) await new Promise((r) => s.close(r));
  });
});
