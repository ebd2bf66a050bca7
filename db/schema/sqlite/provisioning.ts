import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./index.ts";

/** Groups the company directory pushed over SCIM; their names map to portal roles through OIDC_ROLE_MAP. */
export const directoryGroups = sqliteTable(
  "directory_groups",
  {
    id: text("id").primaryKey(),
    displayName: text("display_name").notNull(),
    /** The directory's own id for the group (Entra's object id); also looked up in the role map. */
    externalId: text("external_id"),
    createdAt: integer("created_at", { mode: "number" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    /** When the name, external id or members last changed (members' e-mails too: they are shown). Kept by triggers (0016). */
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
    /** Counts those changes: the group's `meta.version` (a weak ETag). */
    resourceVersion: integer("resource_version", { mode: "number" }).notNull().default(1),
  },
  (table) => [index("directory_groups_display_name_idx").on(table.displayName)],
);

/** Who is in each directory group (a person appears once per group whatever the directory repeats). */
export const directoryGroupMembers = sqliteTable(
  "directory_group_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => directoryGroups.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index("directory_group_members_user_idx").on(table.userId)],
);

/**
 * How many accounts the directory manages (provisioned_at set), kept by triggers on users
 * (migration 0019): SCIM's unfiltered list answers its `totalResults` without counting 100,000
 * rows. PostgreSQL spreads the count over up to 32 slots (by transaction id) so parallel creates do
 * not wait on one row; SQLite writes slot 1. The count is the sum of the slots.
 */
export const provisionedCount = sqliteTable("provisioned_count", {
  slot: integer("slot").primaryKey().default(1),
  people: integer("people").notNull().default(0),
});
