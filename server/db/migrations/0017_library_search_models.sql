ALTER TABLE "library_passages" ADD COLUMN "embedding_model" varchar(200);--> statement-breakpoint
-- A search's candidates for a match that ANDs words (docs/decisions/0027-library-search-candidates.md):
-- from the GIN index only, at most at_most of them. With the LIMIT the planner takes a sequential
-- scan for cheaper, estimating the words as independent; where they never meet it read the whole
-- table. A function keeps the setting to this one query, in one round trip.
CREATE FUNCTION library_candidates(company integer, module_key text, match tsquery, at_most integer)
RETURNS TABLE (id bigint, language varchar, search_vector tsvector)
LANGUAGE sql STABLE
SET enable_seqscan = off
AS $$
  SELECT p.id, p.language, p.search_vector
  FROM library_passages p
  WHERE p.company_id = company AND p.module = module_key AND p.searchable
    AND p.search_vector @@ match
  LIMIT at_most
$$;
