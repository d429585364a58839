ALTER TABLE "event_after_sale_rules" ADD COLUMN "indicacao_minimo" integer;--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "indicacao_percentual" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "indicada_por_id" integer;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "indicacao_devolvida_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "indicacao_devolvida_centavos" integer;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_indicada_por_id_registrations_id_fk" FOREIGN KEY ("indicada_por_id") REFERENCES "public"."registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registrations_referred_by_idx" ON "registrations" USING btree ("indicada_por_id") WHERE "registrations"."indicada_por_id" is not null;--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD CONSTRAINT "event_after_sale_rules_referral" CHECK (("event_after_sale_rules"."indicacao_minimo" is null or "event_after_sale_rules"."indicacao_minimo" between 1 and 100) and "event_after_sale_rules"."indicacao_percentual" between 0 and 100);