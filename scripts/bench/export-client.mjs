// The bench's CSV export client, in its own process so reading ~200 MB never delays the load
// generator's event loop (and so its latency figures). Usage: node bench-export-client.mjs <url> <cookie> [max seconds]
// Prints one JSON line: {"status", "rows", "seconds", "complete"}; with max seconds, it stops reading then (complete: false).
const started = performance.now();
const maxSeconds = Number(process.argv[4] ?? Infinity);
let complete = true;
const response = await fetch(process.argv[2], { headers: { cookie: process.argv[3] } });
let lines = 0;
if (response.ok) {
  for await (const chunk of response.body) {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    if ((performance.now() - started) / 1000 > maxSeconds) {
      complete = false;
      break;
    }
  }
}
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ status: response.status, rows: Math.max(0, lines - 1), seconds, complete }));
