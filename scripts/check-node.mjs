// Run by every npm script before any project code: better-sqlite3 13 dies with a segfault (exit 139,
// no message) on Node 20. Plain JavaScript with no new syntax or APIs, so the old Node it refuses
// can run it; the minimum is package.json's "engines".
import { readFileSync } from "fs";

/** [major, minor] from package.json's `engines.node` (">=22.12"). */
export function requiredNode() {
  var range = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines.node;
  var match = /(\d+)\.(\d+)/.exec(range);
  return [Number(match[1]), Number(match[2])];
}

/** True when `version` ("v20.20.2") is older than requiredNode(). */
export function nodeTooOld(version) {
  var parts = String(version).replace(/^v/, "").split(".");
  var major = Number(parts[0]);
  var minor = Number(parts[1]);
  var required = requiredNode();
  return major < required[0] || (major === required[0] && minor < required[1]);
}

if (/check-node\.mjs$/.test(process.argv[1] || "") && nodeTooOld(process.version)) {
  console.error(
    "Este comando precisa do Node ≥ " +
      requiredNode().join(".") +
      " (encontrado " +
      process.version +
      "). Rode `source scripts/use-node.sh` e tente de novo.",
  );
  process.exit(1);
}
