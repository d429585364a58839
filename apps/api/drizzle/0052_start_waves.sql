CREATE TABLE "event_category_waves" (
	"id" serial PRIMARY KEY NOT NULL,
	"category_id" integer NOT NULL,
	"posicao" integer NOT NULL,
	"nome" text NOT NULL,
	"ate_segundos" integer,
	"capacidade" integer
);
--> statement-breakpoint
ALTER TABLE "registration_categories" ADD COLUMN "onda_id" integer;--> statement-breakpoint
ALTER TABLE "registration_categories" ADD COLUMN "tempo_estimado_segundos" integer;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "resultado_anterior_url" text;--> statement-breakpoint
ALTER TABLE "event_category_waves" ADD CONSTRAINT "event_category_waves_category_id_event_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."event_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_category_waves_category_idx" ON "event_category_waves" USING btree ("category_id","posicao");--> statement-breakpoint
ALTER TABLE "registration_categories" ADD CONSTRAINT "registration_categories_onda_id_event_category_waves_id_fk" FOREIGN KEY ("onda_id") REFERENCES "public"."event_category_waves"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registration_categories_wave_idx" ON "registration_categories" USING btree ("onda_id") WHERE "registration_categories"."cancelled_at" is null;