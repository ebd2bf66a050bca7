// One page-load window in a fresh process of its own: the bench process holds the seed's million
// rows' garbage, and its GC pauses and slower event loop landed in the page figures measured there
// (p99 102–150 ms before an export, against 33–40 ms for the same page from the main bench).
// Usage: node bench-load-client.mjs <url> <cookie> <connections> <seconds> [req/s].
// Prints one JSON line: {"reqPerSec", "p50", "p99", "non2xx", "requests"}.
//
// Without a rate: autocannon at saturation (each connection sends its next request as soon as the
// last is answered). With a rate: requests leave evenly spaced (one every 1/rate s) over a pool of
// `connections` keep-alive sockets, and each latency counts from when the request was due, so time
// spent waiting for a free socket counts too (no coordinated omission). Hand-written because
// autocannon's own rate sends each connection's share in a burst at the start of every second.
//
// BENCH_WINDOWS=<start, epoch ms>:<window ms>[:<guard ms>] (paced only): starts at that instant and also
// reports the p99 of the requests due in even windows (p99Off) and in odd ones (p99On), and of each window
// (p99ByWindow), leaving out each window's first guard ms (250 by default: requests still caught in the other
// window's traffic; the audit-stream bench leaves out a resumed stream's catch-up). beacon-client.mjs with
// the same value sends only in odd windows: the two conditions alternate every few seconds in one run,
// so a drift of the shared machine's load falls on both alike.
import http from "node:http";
import autocannon from "autocannon";

const windows = process.env.BENCH_WINDOWS?.split(":").map(Number);
const WINDOW_GUARD_MS = windows?.[2] ?? 250;

const [url, cookie, connections, seconds, rate] = process.argv.slice(2);
const headers = { cookie, "accept-encoding": "gzip, br" };

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (ms) => Math.round(ms * 10) / 10;

async function saturated() {
  const result = await autocannon({ url, connections: Number(connections), duration: Number(seconds), headers });
  return {
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
    requests: result.requests.total,
  };
}

/** Which alternating window a due time (performance.now()) falls in: "off", "on", or null inside a window's guard. */
function windowOf(due) {
  const [start, width] = windows;
  const since = performance.timeOrigin + due - start;
  if (since % width < WINDOW_GUARD_MS) return null;
  return Math.floor(since / width) % 2 === 0 ? "off" : "on";
}

async function paced(perSecond) {
  if (windows) await new Promise((resolve) => setTimeout(resolve, Math.max(0, windows[0] - Date.now())));
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
  const latencies = [];
  const byWindow = { off: [], on: [] };
  /** Latencies by window index (even: off, odd: on), for the p99 of each window. */
  const perWindow = [];
  let non2xx = 0;
  let pending = 0;
  const interval = 1000 / perSecond;
  const started = performance.now();
  const ends = started + Number(seconds) * 1000;
  return new Promise((resolve) => {
    const finish = () => {
      if (pending > 0 || next < ends) return;
      agent.destroy();
      const sorted = latencies.sort((a, b) => a - b);
      const elapsed = (performance.now() - started) / 1000;
      const windowed = windows && {
        p99Off: round(
          percentile(
            byWindow.off.sort((a, b) => a - b),
            99,
          ),
        ),
        p99On: round(
          percentile(
            byWindow.on.sort((a, b) => a - b),
            99,
          ),
        ),
        p99ByWindow: Array.from(perWindow, (values) =>
          round(
            percentile(
              (values ?? []).sort((a, b) => a - b),
              99,
            ),
          ),
        ),
        requestsOff: byWindow.off.length,
        requestsOn: byWindow.on.length,
      };
      resolve({
        reqPerSec: Math.round(latencies.length / elapsed),
        p50: round(percentile(sorted, 50)),
        p99: round(percentile(sorted, 99)),
        non2xx,
        requests: latencies.length,
        ...windowed,
      });
    };
    const send = (due) => {
      pending++;
      const request = http.get(
        { agent, host: target.hostname, port: target.port, path: target.pathname + target.search, headers },
        (response) => {
          response.resume();
          response.on("end", () => {
            const latency = performance.now() - due;
            latencies.push(latency);
            const window = windows && windowOf(due);
            if (window) {
              byWindow[window].push(latency);
              const index = Math.floor((performance.timeOrigin + due - windows[0]) / windows[1]);
              (perWindow[index] ??= []).push(latency);
            }
            if (response.statusCode < 200 || response.statusCode >= 300) non2xx++;
            pending--;
            finish();
          });
        },
      );
      request.on("error", () => {
        non2xx++;
        pending--;
        finish();
      });
    };
    let next = started;
    const tick = () => {
      const now = performance.now();
      while (next <= now && next < ends) {
        send(next);
        next += interval;
      }
      if (next < ends) setTimeout(tick, Math.max(0, next - performance.now()));
      else finish();
    };
    tick();
  });
}

console.log(JSON.stringify(rate ? await paced(Number(rate)) : await saturated()));
