-- A company may name several admin groups (ADR 0078): the key becomes (company, group).
ALTER TABLE "company_admin_groups" DROP CONSTRAINT "company_admin_groups_pkey";--> statement-breakpoint
ALTER TABLE "company_admin_groups" ADD CONSTRAINT "company_admin_groups_company_id_group_name_pk" PRIMARY KEY("company_id","group_name");
