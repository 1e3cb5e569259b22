-- The company library (docs/decisions/0065-company-library.md). Each document language has a
-- text search configuration like atrium_search (0002): its words pass through unaccent before
-- stemming, so "Gehalter" finds "Gehälter". unaccent is already installed by 0002.
CREATE TABLE "library_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"module" varchar(32) NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"language" varchar(32) NOT NULL,
	"current_version" integer NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_passages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"module" varchar(32) NOT NULL,
	"document_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"ordinal" integer NOT NULL,
	"heading_path" text NOT NULL,
	"clause" varchar(32),
	"page" integer,
	"text" text NOT NULL,
	"language" varchar(32) NOT NULL,
	"searchable" boolean NOT NULL,
	"search_vector" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"version" integer NOT NULL,
	"mime_type" varchar(255) NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"added_by" uuid,
	"added_by_email" varchar(255),
	"passages" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "library_documents" ADD CONSTRAINT "library_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_passages" ADD CONSTRAINT "library_passages_document_id_library_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."library_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_passages" ADD CONSTRAINT "library_passages_version_id_library_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."library_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_versions" ADD CONSTRAINT "library_versions_document_id_library_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."library_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_versions" ADD CONSTRAINT "library_versions_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "library_documents_name_idx" ON "library_documents" USING btree ("company_id","module","file_name");--> statement-breakpoint
CREATE INDEX "library_documents_company_idx" ON "library_documents" USING btree ("company_id","module");--> statement-breakpoint
CREATE INDEX "library_passages_version_idx" ON "library_passages" USING btree ("version_id","ordinal");--> statement-breakpoint
CREATE INDEX "library_passages_search_idx" ON "library_passages" USING gin ("search_vector") WHERE "library_passages"."searchable";--> statement-breakpoint
CREATE INDEX "library_passages_scope_idx" ON "library_passages" USING btree ("company_id","module") WHERE "library_passages"."searchable";--> statement-breakpoint
CREATE UNIQUE INDEX "library_versions_doc_idx" ON "library_versions" USING btree ("document_id","version");--> statement-breakpoint
CREATE INDEX "library_versions_company_idx" ON "library_versions" USING btree ("company_id");--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION library_english ( COPY = english );
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION library_english
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION library_german ( COPY = german );
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION library_german
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, german_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION library_french ( COPY = french );
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION library_french
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, french_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION library_spanish ( COPY = spanish );
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION library_spanish
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, spanish_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION library_italian ( COPY = italian );
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION library_italian
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, italian_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION library_dutch ( COPY = dutch );
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION library_dutch
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, dutch_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION library_portuguese ( COPY = portuguese );
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION library_portuguese
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, portuguese_stem;
