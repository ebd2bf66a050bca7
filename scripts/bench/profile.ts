/**
 * `npm run bench -- --profile`: a gate of its own started with `node --cpu-prof`, loaded with one
 * signed-in page alone (/faq identity unless --profile-page / --profile-br say otherwise, 50 connections), stopped with SIGTERM; prints the functions
 * that took the most CPU themselves (self time), so a change to the hot path can be judged by
 * where the time went, not only by how much.
 */
import fs from "node:fs";
import path from "node:path";
import { runClient, startServer } from "./process.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface Frame {
  function: string;
  where: string;
  selfPercent: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time per function over the samples taken between `from` and `to` (µs of the monotonic
 * clock, as V8 stamps them: the load window, not the start-up), the largest first; idle excluded.
 */
export function topFrames(profileFile: string, from: number, to: number, count = 20): Frame[] {
  const profile = JSON.parse(fs.readFileSync(profileFile, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hitsById = new Map<number, number>();
  let time = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    time += profile.timeDeltas[index]!;
    if (time < from || time > to) continue;
    const id = profile.samples[index]!;
    if (byId.get(id)?.callFrame.functionName === "(idle)") continue;
    hitsById.set(id, (hitsById.get(id) ?? 0) + 1);
  }
  const totals = new Map<string, { frame: ProfileNode["callFrame"]; hits: number }>();
  let all = 0;
  for (const [id, hits] of hitsById) {
    all += hits;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const key = `${functionName}@${url}:${lineNumber}`;
    const entry = totals.get(key) ?? { frame: byId.get(id)!.callFrame, hits: 0 };
    entry.hits += hits;
    totals.set(key, entry);
  }
  return [...totals.values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, count)
    .map(({ frame, hits }) => ({
      function: frame.functionName || "(anônima)",
      where: frame.url
        ? `${frame.url.replace(/^.*\/(node_modules\/|dist\/)/, "$1").replace(/^node:/, "node:")}:${frame.lineNumber + 1}`
        : "",
      selfPercent: Math.round((hits / all) * 1000) / 10,
    }));
}

export interface ProfileOptions {
  /** Environment of the gate (database, PUBLIC_URL, LOG_LEVEL…); PORT is chosen here. */
  env: Record<string, string>;
  nodeFlags: string[];
  port: number;
  cookie: string;
  seconds: number;
  dir: string;
  /** The page loaded (/faq by default) and whether the client asks for brotli. */
  page?: string;
  encoding?: "identity" | "br";
}

export async function profileGate(options: ProfileOptions): Promise<Frame[]> {
  fs.mkdirSync(options.dir, { recursive: true });
  const gate = await startServer(
    process.execPath,
    [...options.nodeFlags, "--cpu-prof", `--cpu-prof-dir=${options.dir}`, "dist/gate/main.mjs"],
    { ...options.env, PORT: String(options.port), PUBLIC_URL: `http://127.0.0.1:${options.port}` },
    /no ar em (http:\/\/[^\s]+)/,
  );
  const url = `${gate.match[1]}${options.page ?? "/faq"}`;
  const headers: Record<string, string> = { cookie: options.cookie };
  if (options.encoding === "br") headers["accept-encoding"] = "gzip, deflate, br, zstd";
  const microseconds = () => Number(process.hrtime.bigint() / 1000n);
  const from = microseconds();
  await runClient("scripts/bench/cost-client.mjs", [url, JSON.stringify(headers), "50", String(options.seconds)]);
  const to = microseconds();
  const exited = new Promise((resolve) => gate.child.once("exit", resolve));
  gate.child.kill("SIGTERM");
  await exited;
  const file = fs.readdirSync(options.dir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error("o gate não gravou o perfil de CPU");
  // Kept next to the results, for a closer look (Chrome DevTools, speedscope).
  fs.mkdirSync("bench-results", { recursive: true });
  fs.copyFileSync(
    path.join(options.dir, file),
    path.join("bench-results", `gate-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`),
  );
  return topFrames(path.join(options.dir, file), from, to);
}
