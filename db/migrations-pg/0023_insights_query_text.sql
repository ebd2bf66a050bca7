-- Issue 62 (item 2): a query is stored under a keyed hash of its text, its text only once 3 people searched it (insights_queries.text). The rows written before held every query in clear, below the threshold too, and the keys of every pseudonym sat in insights_keys: both go. Search history is dropped (a hash needs INSIGHTS_KEY, which SQL has not); old votes stay counted but can no longer be linked to anyone (nor changed by their authors).
ALTER TABLE "insights_queries" ADD COLUMN "text" text;--> statement-breakpoint
DELETE FROM "insights_query_people";--> statement-breakpoint
DELETE FROM "insights_queries";--> statement-breakpoint
DELETE FROM "insights_searches";--> statement-breakpoint
DELETE FROM "insights_search_totals";--> statement-breakpoint
DELETE FROM "insights_keys";
