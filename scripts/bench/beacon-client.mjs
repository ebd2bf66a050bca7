// Search beacons at a steady rate, in a fresh process of its own (beside load-client.mjs's pages):
// one POST every 1/rate s, cycling through the requests in a JSON file ([{path, headers, body}]),
// over a pool of keep-alive sockets. Evenly spaced like real beacons from many people, not in a
// burst at the start of every second as autocannon's own rate sends them.
// Usage: node beacon-client.mjs <url> <requests.json> <seconds> <req/s>.
// BENCH_WINDOWS=<start, epoch ms>:<window ms>: starts at that instant and sends only in odd windows
// (load-client.mjs with the same value compares its pages' p99 in the odd windows with the even ones).
// Prints one JSON line: {"sent", "accepted", "refused", "failed", "reqPerSec"}.
import fs from "node:fs";
import http from "node:http";

const [url, file, seconds, rate] = process.argv.slice(2);
const windows = process.env.BENCH_WINDOWS?.split(":").map(Number);
if (windows) await new Promise((resolve) => setTimeout(resolve, Math.max(0, windows[0] - Date.now())));
/** Whether a due time (performance.now()) falls in a window that sends: all of them without BENCH_WINDOWS. */
const sending = (due) => !windows || Math.floor((performance.timeOrigin + due - windows[0]) / windows[1]) % 2 === 1;
const requests = JSON.parse(fs.readFileSync(file, "utf8"));
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const interval = 1000 / Number(rate);
const started = performance.now();
const ends = started + Number(seconds) * 1000;
const counts = { sent: 0, accepted: 0, refused: 0, failed: 0 };
let pending = 0;
let next = started;

await new Promise((resolve) => {
  const finish = () => {
    if (pending === 0 && next >= ends) resolve();
  };
  const send = () => {
    const { path, headers, body } = requests[counts.sent % requests.length];
    counts.sent++;
    pending++;
    const request = http.request(
      {
        agent,
        method: "POST",
        host: target.hostname,
        port: target.port,
        path,
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on("end", () => {
          if (response.statusCode >= 200 && response.statusCode < 300) counts.accepted++;
          else counts.refused++;
          pending--;
          finish();
        });
      },
    );
    request.on("error", () => {
      counts.failed++;
      pending--;
      finish();
    });
    request.end(body);
  };
  const tick = () => {
    const now = performance.now();
    while (next <= now && next < ends) {
      if (sending(next)) send();
      next += interval;
    }
    if (next < ends) setTimeout(tick, Math.max(0, next - performance.now()));
    else finish();
  };
  tick();
});
agent.destroy();
console.log(JSON.stringify({ ...counts, reqPerSec: Math.round(counts.sent / ((performance.now() - started) / 1000)) }));
