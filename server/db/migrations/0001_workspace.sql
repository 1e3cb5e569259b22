CREATE TABLE "reply_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"chat_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"content" jsonb NOT NULL,
	"structured_response" jsonb,
	"status" varchar(16) NOT NULL,
	"error" text,
	"model" varchar(255),
	"timestamp" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "search_text" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(search_text, ''))) STORED;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reply_versions" ADD CONSTRAINT "reply_versions_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reply_versions_chat_seq_idx" ON "reply_versions" USING btree ("chat_id","seq");--> statement-breakpoint
CREATE INDEX "chat_messages_search_idx" ON "chat_messages" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "chats_user_updated_idx" ON "chats" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "chats_deleted_idx" ON "chats" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "chats_title_search_idx" ON "chats" USING gin (to_tsvector('english', "title"));--> statement-breakpoint
-- Messages written before search existed: their text (a report's raw text stands in for its parts).
UPDATE "chat_messages" SET "search_text" = CASE
	WHEN jsonb_typeof("content") = 'string' THEN "content" #>> '{}'
	ELSE (SELECT string_agg(p ->> 'text', E'\n') FROM jsonb_array_elements("content") AS p WHERE p ->> 'type' = 'text')
END;
