// The floor of the page-cost comparison: node:http answering, from memory, the very status, headers and
// bytes the gate sent for each page and encoding (captured by page-cost.ts), and doing nothing else.
// Usage: node bare-server.mjs <answers.json> — { "/faq": { "identity": { "status", "headers", "body" (base64) }, "br": … } }.
import fs from "node:fs";
import http from "node:http";

const answers = new Map();
for (const [path, byEncoding] of Object.entries(JSON.parse(fs.readFileSync(process.argv[2], "utf8")))) {
  const decoded = {};
  for (const [encoding, answer] of Object.entries(byEncoding)) {
    decoded[encoding] = { status: answer.status, headers: answer.headers, body: Buffer.from(answer.body, "base64") };
  }
  answers.set(path, decoded);
}

const server = http.createServer((req, res) => {
  const page = answers.get(req.url);
  if (!page) return res.writeHead(404).end();
  const answer = page.br && (req.headers["accept-encoding"] ?? "").includes("br") ? page.br : page.identity;
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.listen(0, "127.0.0.1", () => console.log(`bare on ${server.address().port}`));
