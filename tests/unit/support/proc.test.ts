import { spawn } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { threadNiceness } from "../../support/proc";

// A process whose threads keep starting and ending, as the server's do while exports come and go.
const CHURN = `
const { Worker } = require("node:worker_threads");
process.stdout.write("pronto\\n");
const spin = () => new Worker("setTimeout(() => {}, 1)", { eval: true }).once("exit", spin);
for (let i = 0; i < 4; i++) spin();
setTimeout(() => process.exit(0), 20000);
`;

describe("reading a process's threads from /proc", () => {
  it.runIf(fs.existsSync("/proc/self/task"))(
    "never fails on a thread that ends between listing and reading, and always finds the main thread",
    { timeout: 30_000 },
    async () => {
      const child = spawn(process.execPath, ["-e", CHURN], { stdio: ["ignore", "pipe", "inherit"] });
      try {
        await new Promise((resolve) => child.stdout.once("data", resolve));
        for (let round = 0; round < 3000; round++) {
          const threads = threadNiceness(child.pid!);
          expect(threads.some((thread) => thread.tid === child.pid)).toBe(true);
          expect(threads.every((thread) => Number.isInteger(thread.nice))).toBe(true);
        }
      } finally {
        child.kill("SIGKILL");
      }
    },
  );
});
