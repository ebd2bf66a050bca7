// Search beacons at a steady rate, in a fresh process of its own (beside load-client.mjs's pages):
// one POST every 1/rate s, cycling through the requests in a JSON file ([{path, headers, body}]),
// over up to 8 keep-alive sockets. Evenly spaced like real beacons from many people, not in a
// burst at the start of every second as autocannon's own rate sends them. Each request's bytes are
// built once and written straight to a socket, and only the status line and the body's length are
// read back: the sender stands for browsers on other machines, so the less of the shared cores it
// takes from the gate it measures, the better (node:http's client cost ~430 µs of CPU a beacon here).
// Usage: node beacon-client.mjs <url> <requests.json> <seconds> <req/s>.
// BENCH_WINDOWS=<start, epoch ms>:<window ms>: starts at that instant and sends only in odd windows
// (load-client.mjs with the same value compares its pages' p99 in the odd windows with the even ones).
// Prints one JSON line: {"sent", "accepted", "refused", "failed", "reqPerSec"}.
import fs from "node:fs";
import net from "node:net";

const [url, file, seconds, rate] = process.argv.slice(2);
const windows = process.env.BENCH_WINDOWS?.split(":").map(Number);
if (windows) await new Promise((resolve) => setTimeout(resolve, Math.max(0, windows[0] - Date.now())));
/** Whether a due time (performance.now()) falls in a window that sends: all of them without BENCH_WINDOWS. */
const sending = (due) => !windows || Math.floor((performance.timeOrigin + due - windows[0]) / windows[1]) % 2 === 1;
const target = new URL(url);
const requests = JSON.parse(fs.readFileSync(file, "utf8")).map(({ path, headers, body }) =>
  Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: ${target.host}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("") +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  ),
);
const MAX_SOCKETS = 8;
const interval = 1000 / Number(rate);
const started = performance.now();
const ends = started + Number(seconds) * 1000;
const counts = { sent: 0, accepted: 0, refused: 0, failed: 0 };
/** Sockets with no request in flight, and requests waiting for one (as http.Agent queues past maxSockets). */
const idle = [];
const waiting = [];
let open = 0;
let pending = 0;
let next = started;
let done;
const finished = new Promise((resolve) => (done = resolve));
const finish = () => {
  if (pending === 0 && next >= ends) done();
};

/** The length of the first whole response in `buffer` (headers and body), or 0 when more bytes are needed. */
function responseLength(buffer) {
  const headerEnd = buffer.indexOf("\r\n\r\n");
  if (headerEnd === -1) return 0;
  const head = buffer.toString("latin1", 0, headerEnd);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length) {
    const total = headerEnd + 4 + Number(length[1]);
    return buffer.length >= total ? total : 0;
  }
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    const end = buffer.indexOf("\r\n0\r\n\r\n", headerEnd + 2);
    return end === -1 ? 0 : end + 7;
  }
  return headerEnd + 4;
}

function settle(socket, status) {
  if (status >= 200 && status < 300) counts.accepted++;
  else counts.refused++;
  pending--;
  const queued = waiting.shift();
  if (queued) write(socket, queued);
  else idle.push(socket);
  finish();
}

function write(socket, request) {
  socket.busy = true;
  socket.write(request);
}

function connect(first) {
  open++;
  const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
  socket.received = Buffer.alloc(0);
  socket.on("data", (chunk) => {
    socket.received = socket.received.length ? Buffer.concat([socket.received, chunk]) : chunk;
    for (let length = responseLength(socket.received); length > 0 && socket.busy; length = responseLength(socket.received)) {
      const status = Number(socket.received.toString("latin1", 9, 12));
      socket.received = socket.received.subarray(length);
      socket.busy = false;
      settle(socket, status);
    }
  });
  const lost = () => {
    open--;
    const at = idle.indexOf(socket);
    if (at !== -1) idle.splice(at, 1);
    if (socket.busy) {
      socket.busy = false;
      counts.failed++;
      pending--;
      finish();
    }
  };
  socket.on("error", () => undefined);
  socket.on("close", lost);
  write(socket, first);
}

function send() {
  const request = requests[counts.sent % requests.length];
  counts.sent++;
  pending++;
  const socket = idle.pop();
  if (socket) write(socket, request);
  else if (open < MAX_SOCKETS) connect(request);
  else waiting.push(request);
}

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
await finished;
for (const socket of idle) socket.destroy();
console.log(JSON.stringify({ ...counts, reqPerSec: Math.round(counts.sent / ((performance.now() - started) / 1000)) }));
