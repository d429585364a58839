ALTER TABLE "events" ADD COLUMN "nfse_codigo_tributacao_nacional" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "nfse_nbs" text DEFAULT '' NOT NULL;