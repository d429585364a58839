ALTER TABLE "event_categories" ADD COLUMN "idade_minima" integer;--> statement-breakpoint
ALTER TABLE "event_categories" ADD COLUMN "idade_maxima" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "inscricoes_fechadas" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_categories" ADD COLUMN "numero_peito" integer;--> statement-breakpoint
ALTER TABLE "event_categories" ADD CONSTRAINT "event_categories_age_limits" CHECK ("event_categories"."idade_minima" is null or "event_categories"."idade_maxima" is null or "event_categories"."idade_minima" <= "event_categories"."idade_maxima");