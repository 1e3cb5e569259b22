CREATE TABLE "usage_daily_people" (
	"day" date NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"turns" integer NOT NULL,
	CONSTRAINT "usage_daily_people_company_id_day_user_id_pk" PRIMARY KEY("company_id","day","user_id")
);
--> statement-breakpoint
ALTER TABLE "usage_daily_people" ADD CONSTRAINT "usage_daily_people_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill: each person's day, summed over the finer roll-up the turns already wrote (ADR 0030).
INSERT INTO "usage_daily_people" ("day", "company_id", "user_id", "turns")
SELECT "day", "company_id", "user_id", sum("turns")::int FROM "usage_daily_users"
GROUP BY "company_id", "day", "user_id";
