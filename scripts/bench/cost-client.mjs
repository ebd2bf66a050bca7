// One load window of the page-cost comparison, in a fresh process (the bench process's own garbage
// and GC pauses stay out of the figures). Usage: node cost-client.mjs <url> <headers-json> <connections> <seconds>.
// Prints one JSON line: {"reqPerSec", "p50", "p99", "non2xx", "requests"}.
import autocannon from "autocannon";

const [url, headers, connections, seconds] = process.argv.slice(2);
const result = await autocannon({ url, headers: JSON.parse(headers), connections: Number(connections), duration: Number(seconds) });
console.log(
  JSON.stringify({
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
    requests: result.requests.total,
  }),
);
