ALTER TABLE "invitations" ADD COLUMN "token_hash" varchar(64);--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_hash_idx" ON "invitations" USING btree ("token_hash");