// @ts-check
import { defineConfig } from "astro/config";
import node from "@astrojs/node";
import mdx from "@astrojs/mdx";
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";

// Pages are prerendered; the gate (src/server) serves them after an access check.
// Only API endpoints (`prerender = false`) run inside the adapter's handler.
export default defineConfig({
  output: "static",
  adapter: node({ mode: "middleware" }),
  integrations: [mdx(), react()],
  session: false,
  trailingSlash: "ignore",
  prerenderConflictBehavior: "error",
  build: { format: "directory" },
  devToolbar: { enabled: false },
  vite: { plugins: [tailwindcss()] },
});
