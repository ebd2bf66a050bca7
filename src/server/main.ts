/**
 * Production entry: `node dist/gate/main.mjs` (bundled by scripts/build-server.mjs).
 * Opens and migrates the database, loads the built site into memory and serves it through
 * the gate, which hands API requests to the Astro adapter's handler.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { config } from "../lib/server/config.ts";
import { getDb } from "../lib/server/db.ts";
import { seedDatabase } from "../lib/server/seed.ts";
import { loadAssets, loadPages } from "../lib/server/static-files.ts";
import { loadSearchBundles } from "../lib/server/search-files.ts";
import { createGate, type AppHandler } from "./gate.ts";

const dist = path.resolve(process.env.B1_DIST_DIR ?? "dist");
const cfg = config();
const db = getDb();
seedDatabase(db);

const { handler } = (await import(pathToFileURL(path.join(dist, "server", "entry.mjs")).href)) as { handler: AppHandler };
const gate = createGate({
  db,
  config: cfg,
  assets: loadAssets(path.join(dist, "client")),
  pages: loadPages(path.join(dist, "pages")),
  search: loadSearchBundles(path.join(dist, "search")),
  appHandler: handler,
});

// A slow client cannot hold a request open: Node answers 408 past requestTimeout (checked every second).
const server = http.createServer(
  {
    keepAliveTimeout: 65_000,
    requestTimeout: cfg.requestTimeoutMs,
    headersTimeout: Math.min(20_000, cfg.requestTimeoutMs),
    connectionsCheckingInterval: 1000,
  },
  gate,
);

server.listen(cfg.port, cfg.host, () => {
  const { port } = server.address() as AddressInfo;
  console.log(`B1 Method Hub no ar em http://${cfg.host === "0.0.0.0" ? "localhost" : cfg.host}:${port}`);
  console.log(`Banco de dados: ${cfg.databasePath}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    db.$client.close();
    process.exit(0);
  });
}
