// The bench's sequential timings (audit filters, admin search), in a fresh process of their own: the
// bench process holds the seed's million rows' garbage, and its GC pauses landed in these figures
// (p95 30–60 ms there, 9–24 ms from a fresh process against the same server).
// Usage: node bench-timed-client.mjs <url> <cookie> <count>. Prints one JSON line: {"times", "status", "body"}.
const [url, cookie, count] = process.argv.slice(2);
const times = [];
let body = "";
let status = 0;
for (let index = 0; index < Number(count); index++) {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  body = await response.text();
  status = response.status;
  if (!response.ok) break;
  times.push(performance.now() - started);
}
console.log(JSON.stringify({ times, status, body }));
