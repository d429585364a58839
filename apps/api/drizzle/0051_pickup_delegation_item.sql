ALTER TABLE "event_after_sale_rules" ADD COLUMN "delegation_allowed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "delegation_refused_senior_half" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "pickup_item" text;--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "pickup_item_unit" text;--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "pickup_item_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_checkins" ADD COLUMN "retirado_por" text DEFAULT 'titular' NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_checkins" ADD COLUMN "retirado_por_nome" text;--> statement-breakpoint
ALTER TABLE "registration_checkins" ADD COLUMN "item_quantidade" numeric(10, 3);--> statement-breakpoint
ALTER TABLE "registration_offline_pickups" ADD COLUMN "retirado_por" text DEFAULT 'titular' NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_offline_pickups" ADD COLUMN "item_quantidade" numeric(10, 3);--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "retirada_autorizada_nome" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "retirada_autorizada_cpf" text;