CREATE TABLE "budget_reservations" (
	"message_id" uuid PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"module" varchar(100) NOT NULL,
	"user_id" uuid NOT NULL,
	"tokens" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budget_warnings" (
	"budget_id" integer NOT NULL,
	"month" date NOT NULL,
	"threshold" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_warnings_budget_id_month_threshold_pk" PRIMARY KEY("budget_id","month","threshold")
);
--> statement-breakpoint
CREATE TABLE "budgets" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"module" varchar(100) DEFAULT '' NOT NULL,
	"user_id" uuid,
	"unit" varchar(10) NOT NULL,
	"limit" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budgets_scope_key" UNIQUE NULLS NOT DISTINCT("company_id","module","user_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" varchar(50) NOT NULL,
	"title" varchar(255) NOT NULL,
	"body" varchar(1000) DEFAULT '' NOT NULL,
	"link" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "usage_monthly" (
	"month" date NOT NULL,
	"company_id" integer NOT NULL,
	"module" varchar(100) NOT NULL,
	"user_id" uuid NOT NULL,
	"tokens" bigint NOT NULL,
	"turns" integer NOT NULL,
	CONSTRAINT "usage_monthly_company_id_month_module_user_id_pk" PRIMARY KEY("company_id","month","module","user_id")
);
--> statement-breakpoint
ALTER TABLE "budget_reservations" ADD CONSTRAINT "budget_reservations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_warnings" ADD CONSTRAINT "budget_warnings_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_monthly" ADD CONSTRAINT "usage_monthly_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "budget_reservations_company_idx" ON "budget_reservations" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","id");--> statement-breakpoint
-- A month already under way counts toward the budgets set in it (ADR 0070).
INSERT INTO "usage_monthly" ("month", "company_id", "module", "user_id", "tokens", "turns")
SELECT date_trunc('month', "created_at" AT TIME ZONE 'UTC')::date, "company_id", "module", "user_id",
       sum("input_tokens" + "output_tokens"), count(*)
FROM "turn_usage" WHERE "company_id" IS NOT NULL AND "user_id" IS NOT NULL
GROUP BY 1, 2, 3, 4;
