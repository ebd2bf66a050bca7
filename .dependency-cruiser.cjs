/**
 * Import rules checked by `npm run check` (depcruise): arrows point down the layers only
 * (entries → domain → data), and nothing imports in a circle.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
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
