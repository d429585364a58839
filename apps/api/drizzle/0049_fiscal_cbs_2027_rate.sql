ALTER TABLE "fiscal_settings" ADD COLUMN "cbs_2027_rate" integer;--> statement-breakpoint
ALTER TABLE "fiscal_settings" ADD COLUMN "cbs_2027_source" text DEFAULT '' NOT NULL;