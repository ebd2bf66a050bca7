import { defineConfig } from "drizzle-kit";

// The PostgreSQL twin of drizzle.config.ts (DATABASE_URL=postgres://…).
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/pg",
  out: "./db/migrations-pg",
});
