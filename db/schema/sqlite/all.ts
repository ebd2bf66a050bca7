// Every SQLite table in one module (the two-factor and audit-chain tables live in their own files).
export * from "./index.ts";
export * from "./two-factor.ts";
export * from "./audit-chain.ts";
export * from "./provisioning.ts";
export * from "./insights.ts";
