CREATE TABLE "library_terms" (
	"company_id" integer NOT NULL,
	"module" varchar(32) NOT NULL,
	"lexeme" text NOT NULL,
	"passages" integer NOT NULL,
	CONSTRAINT "library_terms_company_id_module_lexeme_pk" PRIMARY KEY("company_id","module","lexeme")
);
--> statement-breakpoint
ALTER TABLE "library_terms" ADD CONSTRAINT "library_terms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The passages already stored, counted once (ADR 0068).
INSERT INTO "library_terms" ("company_id", "module", "lexeme", "passages")
SELECT p."company_id", p."module", l.lexeme, count(*)::int
FROM "library_passages" p, unnest(tsvector_to_array(p."search_vector")) AS l(lexeme)
WHERE p."searchable"
GROUP BY 1, 2, 3;
