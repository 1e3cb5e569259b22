CREATE TABLE "model_prices" (
	"model" varchar(255) PRIMARY KEY NOT NULL,
	"input_per_million" numeric(12, 4) NOT NULL,
	"output_per_million" numeric(12, 4) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "turn_usage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"module" varchar(100) NOT NULL,
	"user_id" uuid,
	"model" varchar(255) NOT NULL,
	"provider" varchar(100) NOT NULL,
	"input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"status" integer NOT NULL,
	"starter_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"day" date NOT NULL,
	"company_id" integer NOT NULL,
	"module" varchar(100) NOT NULL,
	"model" varchar(255) NOT NULL,
	"starter_id" integer DEFAULT 0 NOT NULL,
	"turns" integer NOT NULL,
	"errors" integer NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"duration_ms" bigint NOT NULL,
	CONSTRAINT "usage_daily_company_id_day_module_model_starter_id_pk" PRIMARY KEY("company_id","day","module","model","starter_id")
);
--> statement-breakpoint
CREATE TABLE "usage_daily_users" (
	"day" date NOT NULL,
	"company_id" integer NOT NULL,
	"module" varchar(100) NOT NULL,
	"model" varchar(255) NOT NULL,
	"starter_id" integer DEFAULT 0 NOT NULL,
	"user_id" uuid NOT NULL,
	"turns" integer NOT NULL,
	CONSTRAINT "usage_daily_users_company_id_day_module_model_starter_id_user_id_pk" PRIMARY KEY("company_id","day","module","model","starter_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "turn_usage" ADD CONSTRAINT "turn_usage_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turn_usage" ADD CONSTRAINT "turn_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turn_usage" ADD CONSTRAINT "turn_usage_starter_id_starters_id_fk" FOREIGN KEY ("starter_id") REFERENCES "public"."starters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_daily_users" ADD CONSTRAINT "usage_daily_users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "turn_usage_company_created_idx" ON "turn_usage" USING btree ("company_id","created_at");