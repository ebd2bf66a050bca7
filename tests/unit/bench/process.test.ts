/**
 * The bench's core split (scripts/bench/process.ts): the Insights beacon comparison runs the gate on a core of its
 * own and the load clients on the others, even on 2 cores, so the clients' CPU does not land in the gate's p99.
 */
import os from "node:os";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { clientJson, coreSplit, splitCores } from "../../../scripts/bench/process.ts";

const tasksetHere = spawnSync("taskset", ["-V"], { stdio: "ignore" }).status === 0;

describe("bench core split", () => {
  it("gives the server the last core and the clients the rest, from 2 cores up", () => {
    expect(splitCores(1, true)).toBeNull();
    expect(splitCores(2, true)).toEqual({ server: "1", clients: "0" });
    expect(splitCores(4, true)).toEqual({ server: "3", clients: "0-2" });
    expect(splitCores(8, false)).toBeNull();
  });

  it("is this machine's split", () => {
    expect(coreSplit).toEqual(splitCores(os.cpus().length, tasksetHere));
  });

  it.runIf(coreSplit !== null)("starts a client on the clients' cores only", async () => {
    // A client that prints the cores Linux lets it run on.
    const script = `const fs = require("node:fs"); const list = /Cpus_allowed_list:\\s*(\\S+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))[1]; console.log(JSON.stringify({ list }));`;
    const pinned = await clientJson<{ list: string }>(["-e", script], {}, 0, coreSplit!.clients);
    expect(pinned.list).toBe(coreSplit!.clients);
    const free = await clientJson<{ list: string }>(["-e", script]);
    expect(free.list).not.toBe(coreSplit!.clients);
  });
});
