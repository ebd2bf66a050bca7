/**
 * Servers the bench starts, and what it reads of them from /proc: CPU time (utime + stime, whole
 * process, every thread) and resident memory. On a machine with more than 2 cores and `taskset`,
 * every measured server runs pinned to the last core and the load clients to the others; a phase that
 * measures a server's latency beside another load (the Insights beacons) splits even 2 cores (`coreSplit`).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

const cores = os.cpus().length;
const tasksetFound = cores > 1 && spawnSync("taskset", ["-V"], { stdio: "ignore" }).status === 0;
const hasTaskset = cores > 2 && tasksetFound;
/** The core the servers run on, or null when they are not pinned. */
export const serverCore = hasTaskset ? cores - 1 : null;
const clientCores = hasTaskset ? `0-${cores - 2}` : null;
/**
 * The server's core and the clients' cores (taskset lists) on a machine of `count` cores, or null with fewer than 2 or
 * no taskset: the last core for the server, the others for the clients (on 2 cores, one each).
 */
export function splitCores(count: number, taskset: boolean): { server: string; clients: string } | null {
  if (!taskset || count < 2) return null;
  return { server: String(count - 1), clients: count === 2 ? "0" : `0-${count - 2}` };
}
/** This machine's split, for a latency the clients must not take from the server (browsers on other machines would not). */
export const coreSplit = splitCores(cores, tasksetFound);

/** `command argv` pinned to the cores listed (a taskset list), or unchanged with null. */
function pinned(command: string, argv: string[], coresList: string | null): [string, string[]] {
  return coresList === null ? [command, argv] : ["taskset", ["-c", coresList, command, ...argv]];
}

/**
 * Starts a server and resolves once its stdout matches `ready`. Later output is read and dropped
 * (the gate's request log at info: kept, it would grow the bench's memory for nothing).
 */
export function startServer(
  command: string,
  argv: string[],
  env: Record<string, string>,
  ready: RegExp,
  cores: string | null = serverCore === null ? null : String(serverCore),
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const [cmd, args] = pinned(command, argv, cores);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk;
      const match = ready.exec(out);
      if (!match) return;
      child.stdout!.off("data", onData);
      child.stdout!.resume();
      resolve({ child, match });
    };
    child.stdout!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${command} saiu com código ${code}`)));
  });
}

/** Runs a load client script to its end and parses the one JSON line it prints. */
export function runClient<T>(script: string, argv: string[]): Promise<T> {
  const [cmd, args] = pinned(process.execPath, [script, ...argv], clientCores);
  return new Promise((resolve, reject) => {
    const client = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    client.stdout.on("data", (chunk) => (out += chunk));
    client.on("error", reject);
    client.on("exit", (code) => {
      try {
        resolve(JSON.parse(out.trim().split("\n").pop() ?? "") as T);
      } catch {
        reject(new Error(`${script} saiu com código ${code} sem resultado`));
      }
    });
  });
}

const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** CPU seconds the process has used so far, all threads (Linux /proc/<pid>/stat: utime + stime). */
export function cpuSeconds(pid: number): number {
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/**
 * CPU seconds the process's live threads have used so far, to the nanosecond (/proc/<pid>/task/<tid>/schedstat, whose
 * first field is the time on a CPU), where utime + stime count 10 ms ticks: enough for a window of ~0.15 s of CPU.
 * A thread that has exited is no longer counted (a gate's threads live as long as it does).
 */
export function threadCpuSeconds(pid: number): number {
  let total = 0;
  for (const thread of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(fs.readFileSync(`/proc/${pid}/task/${thread}/schedstat`, "utf8").split(" ", 1)[0]);
    } catch {
      // The thread exited between the listing and the read.
    }
  }
  return total / 1e9;
}

/** Resident memory of a process in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** The 1-, 5- and 15-minute load averages, for the report (this machine is shared). */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");
}

/**
 * The node flags `npm run serve` starts the gate with (package.json is the one place they are
 * written), so the bench measures the process operators run.
 */
export function gateNodeFlags(): string[] {
  const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  const words = pkg.scripts.serve!.split(/\s+/);
  const entry = words.indexOf("dist/gate/main.mjs");
  return words.slice(words.lastIndexOf("node", entry) + 1, entry);
}

/** gateNodeFlags plus BENCH_GATE_FLAGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`): what a bench's gate runs with. */
export function benchGateFlags(): string[] {
  return [...gateNodeFlags(), ...(process.env.BENCH_GATE_FLAGS ?? "").split(" ").filter(Boolean)];
}

/** Runs a bench client script in a fresh process (on the cores listed, if any) and reads the one JSON line it prints. */
export function clientJson<T>(args: string[], env: Record<string, string> = {}, nice = 0, cores: string | null = null): Promise<T> {
  const [cmd, argv] = pinned(process.execPath, args, cores);
  return new Promise((resolve, reject) => {
    const client = spawn(cmd, argv, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
    // A client standing for traffic from other machines (beacons from people's browsers) yields the cores first.
    if (nice && client.pid) os.setPriority(client.pid, nice);
    let out = "";
    client.stdout.on("data", (chunk) => (out += chunk));
    client.on("error", reject);
    client.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${args[0]} saiu com código ${code}`))));
  });
}
