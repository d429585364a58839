ALTER TABLE "event_after_sale_rules" ADD COLUMN "equipe_faixas" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "desconto_equipe_percentual" integer;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "preco_base_equipe_centavos" integer;