// The audit-stream bench's webhook receiver, in a process of its own (it stands for a SIEM's HTTP
// collector, which runs on another machine): it takes each batch, answers 204, and tells the bench over
// IPC which events came and how late ({ ids, lags, at } per batch). Parsing a second's 1,000 events
// (about 1 MB of JSON) stays here, off the bench process that paces the phases.
// Usage: node webhook-receiver.mjs <port>; the bench sends "down" and "up" (answered "down"/"up") and
// disconnects to end it. Prints nothing.
import http from "node:http";

const port = Number(process.argv[2]);
let server = null;

function handler(req, res) {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const now = Date.now();
    const events = JSON.parse(Buffer.concat(chunks).toString()).data.events;
    const ids = new Array(events.length);
    const lags = new Array(events.length);
    for (let i = 0; i < events.length; i += 1) {
      ids[i] = events[i].id;
      lags[i] = now - events[i].createdAtMs;
    }
    res.writeHead(204).end();
    process.send({ type: "batch", at: now, ids, lags });
  });
}

function up() {
  return new Promise((resolve) => {
    // Idle connections kept 5 s (Node's default; Vector's and Logstash's HTTP inputs keep them longer): batches
    // reuse one. At 1 s, Node's client (its 1 s safety margin) opened a connection per batch.
    server = http.createServer({ keepAliveTimeout: 5000 }, handler);
    server.listen(port, "127.0.0.1", resolve);
  });
}

function down() {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

process.on("message", async (message) => {
  if (message === "down") await down();
  if (message === "up") await up();
  process.send({ type: message });
});
process.on("disconnect", () => process.exit(0));

await up();
process.send({ type: "up" });
