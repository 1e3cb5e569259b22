CREATE TABLE "remembered_readings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"signature" varchar(128) NOT NULL,
	"reading" jsonb NOT NULL,
	"confirmed_by" uuid,
	"confirmed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "remembered_readings" ADD CONSTRAINT "remembered_readings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remembered_readings" ADD CONSTRAINT "remembered_readings_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "remembered_readings_company_signature_idx" ON "remembered_readings" USING btree ("company_id","signature");