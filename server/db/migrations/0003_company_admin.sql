CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"at" timestamp with time zone NOT NULL,
	"actor_id" uuid,
	"actor_email" varchar(255),
	"action" varchar(64) NOT NULL,
	"target" varchar(255),
	"ip" varchar(64),
	"user_agent" varchar(255),
	"detail" varchar(500),
	"prev_hash" varchar(64),
	"hash" varchar(64) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_domains" (
	"company_id" integer NOT NULL,
	"domain" varchar(253) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_domains_company_id_domain_pk" PRIMARY KEY("company_id","domain")
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"email" varchar(255) NOT NULL,
	"invited_by" uuid,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "starters_module_name_idx";--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "allowed_models" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "starters" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "starters" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" varchar(16) DEFAULT 'member' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "company_domains" ADD CONSTRAINT "company_domains_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_company_idx" ON "audit_log" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "company_domains_domain_idx" ON "company_domains" USING btree ("domain");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_company_email_idx" ON "invitations" USING btree ("company_id","email");--> statement-breakpoint
ALTER TABLE "starters" ADD CONSTRAINT "starters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "starters_scope_module_name_idx" ON "starters" USING btree (coalesce("company_id", 0),"module","name");--> statement-breakpoint
-- The domains move from the companies' array into their own table before the column goes.
INSERT INTO "company_domains" ("company_id", "domain") SELECT DISTINCT "id", lower(unnest("email_domains")) FROM "companies" ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "companies" DROP COLUMN "email_domains";