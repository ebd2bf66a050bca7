/**
 * The server domains (src/lib/server/<domain>/) and the folders each may import, lowest first:
 * an arrow from a domain to one not listed here (or to a domain above it) is a violation.
 */
const SERVER_DOMAINS = {
  platform: [],
  config: ["platform"],
  data: ["config", "platform"],
  http: ["data", "config", "platform"],
  mail: ["config", "platform"],
  content: ["config", "platform"],
  audit: ["data", "config", "platform"],
  trail: ["data", "config", "platform"],
  reading: ["audit", "mail", "data", "config", "platform"],
  insights: ["reading", "content", "data", "config", "platform"],
  throttle: ["audit", "data", "config", "platform"],
  sessions: ["audit", "data", "config", "platform"],
  auth: ["throttle", "sessions", "audit", "mail", "http", "data", "config", "platform"],
  admin: ["auth", "sessions", "audit", "http", "data", "config", "platform"],
  provisioning: ["auth", "sessions", "audit", "data", "config", "platform"],
};

const domainRules = Object.entries(SERVER_DOMAINS).map(([domain, below]) => ({
  name: `domain-${domain}`,
  severity: "error",
  comment: `src/lib/server/${domain}/ imports only the domains below it: ${below.join(", ") || "none"}.`,
  from: { path: `^src/lib/server/${domain}/` },
  to: { path: "^src/lib/server/", pathNot: `^src/lib/server/(${[domain, ...below].join("|")})/` },
}));

/**
 * Import rules checked by `npm run check` (depcruise): arrows point down the layers only
 * (entries → domain → data), and nothing imports in a circle.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    ...domainRules,
    {
      name: "shared-not-to-server",
      severity: "error",
      comment: "Shared logic (src/lib outside server/) runs in the browser too: it never imports server code.",
      from: { path: "^src/lib/", pathNot: "^src/lib/server/" },
      to: { path: "^src/lib/server/" },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle makes modules impossible to load, test or move on their own.",
      from: {},
      to: { circular: true },
    },
    {
      name: "lib-not-to-entries",
      severity: "error",
      comment: "Domain and shared code (src/lib) never import an entry (src/server, src/pages).",
      from: { path: "^src/lib/" },
      to: { path: "^src/(server|pages)/" },
    },
    {
      name: "scripts-not-to-tests",
      severity: "error",
      comment: "CLI scripts ship with the portal; test support code does not.",
      from: { path: "^scripts/" },
      to: { path: "^tests/" },
    },
    {
      name: "islands-not-to-server",
      severity: "error",
      comment: "Islands run in the browser: server-only modules must never reach them.",
      from: { path: "^src/components/islands/" },
      to: { path: "^src/lib/server/" },
    },
    {
      name: "src-not-to-tests",
      severity: "error",
      comment: "Application code never depends on tests.",
      from: { path: "^(src|db)/" },
      to: { path: "^tests/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist|\\.astro)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mjs", ".js", ".astro"] },
  },
};
