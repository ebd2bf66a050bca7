// Plain static file server (sirv) over a folder, serving `<file>.br` to clients that take brotli: a baseline for `npm run bench`.
import http from "node:http";
import sirv from "sirv";

const [dir, port] = process.argv.slice(2);
const serve = sirv(dir, { dev: false, etag: true, brotli: true });
const server = http.createServer((req, res) => serve(req, res, () => res.writeHead(404).end()));
server.listen(Number(port), "127.0.0.1", () => console.log(`static on ${server.address().port}`));
