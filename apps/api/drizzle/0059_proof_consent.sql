ALTER TABLE "price_rule_proofs" ADD COLUMN "consentimento_versao" text;--> statement-breakpoint
ALTER TABLE "price_rule_proofs" ADD COLUMN "consentimento_em" timestamp with time zone;