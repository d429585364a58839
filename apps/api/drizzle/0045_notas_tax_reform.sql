ALTER TABLE "fiscal_settings" ADD COLUMN "nfse_national_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "fiscal_settings" ADD COLUMN "nfse_nbs" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "fiscal_settings" ADD COLUMN "cnae" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "fiscal_settings" ADD COLUMN "nfse_municipal_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "fiscal_tax_rules" ADD COLUMN "ibs_cbs_situation" text DEFAULT '000' NOT NULL;--> statement-breakpoint
ALTER TABLE "fiscal_tax_rules" ADD COLUMN "ibs_cbs_class" text DEFAULT '000001' NOT NULL;