-- Search folds accents ("zurich" finds "Zürich"): a text search configuration like english whose
-- words with letters beyond ASCII pass through unaccent before stemming. unaccent is a trusted
-- extension (PostgreSQL 13+), so the database's owner may install it; PGlite bundles it.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION atrium_search ( COPY = english );
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION atrium_search
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
--> statement-breakpoint
-- A generated column's expression cannot be altered before PostgreSQL 17: dropped (its index
-- with it) and added again, which computes every row's document anew.
ALTER TABLE "chat_messages" DROP COLUMN "search_vector";
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('atrium_search', coalesce(search_text, ''))) STORED;
--> statement-breakpoint
CREATE INDEX "chat_messages_search_idx" ON "chat_messages" USING gin ("search_vector");
--> statement-breakpoint
DROP INDEX "chats_title_search_idx";
--> statement-breakpoint
CREATE INDEX "chats_title_search_idx" ON "chats" USING gin (to_tsvector('atrium_search', "title"));
