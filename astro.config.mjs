// @ts-check
import { defineConfig } from "astro/config";
import node from "@astrojs/node";
import mdx from "@astrojs/mdx";
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { contentPages } from "./scripts/content/integration.ts";

/**
 * No preload helper in the browser bundles (~0.9 KB gzip on every page with a lazy chunk): a lazy chunk's
 * own imports are fetched when it arrives, and dialogs start loading on pointer/focus intent anyway.
 * Astro sets `build.modulePreload` itself, so this goes through the client environment (docs/decisions.md).
 */
const noModulePreload = {
  name: "b1:no-module-preload",
  /** @param {string} name */
  configEnvironment(name) {
    if (name === "client") return { build: { modulePreload: false } };
  },
};

// Pages are prerendered; the gate (src/server) serves them after an access check.
// Only API endpoints (`prerender = false`) run inside the adapter's handler.
export default defineConfig({
  output: "static",
  // The gate cuts request bodies at 64 KB first; this is the adapter's own backstop at the same size.
  adapter: node({ mode: "middleware", bodySizeLimit: 64 * 1024 }),
  integrations: [contentPages(), mdx(), react()],
  session: false,
  trailingSlash: "ignore",
  prerenderConflictBehavior: "error",
  build: { format: "directory" },
  devToolbar: { enabled: false },
  // No code blocks in the content, and Shiki's inline styles are what the CSP would have to allow: plain <pre><code>.
  markdown: { syntaxHighlight: false },
  // Astro hashes its own scripts into a per-page policy (a <meta> the gate also sends as a header).
  // Pagefind compiles WebAssembly; styles keep 'unsafe-inline' for React's and the toasts' inline styles.
  security: {
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
      scriptDirective: { resources: ["'self'", "'wasm-unsafe-eval'"] },
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  vite: {
    plugins: [tailwindcss(), noModulePreload],
    // drizzle-orm goes inside the server chunks: loaded from node_modules as its hundreds of separate
    // ES modules it cost the server process ~200 MB of memory (docs/decisions.md).
    ssr: { noExternal: ["drizzle-orm"] },
    build: {
      rollupOptions: {
        /** Astro's own "use astro:head-inject" marker in compiled MDX is not a directive for the bundler: its warning is noise. */
        onwarn(warning, warn) {
          if (warning.code === "MODULE_LEVEL_DIRECTIVE" && warning.message.includes("astro:head-inject")) return;
          warn(warning);
        },
      },
    },
  },
});
