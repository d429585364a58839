CREATE TABLE "team_quotas" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"equipe_id" integer NOT NULL,
	"vagas" integer NOT NULL,
	"ate" timestamp with time zone,
	"encerrada_em" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_quotas_places" CHECK ("team_quotas"."vagas" >= 0)
);
--> statement-breakpoint
ALTER TABLE "place_reservations" ADD COLUMN "team_quota_id" integer;--> statement-breakpoint
ALTER TABLE "team_quotas" ADD CONSTRAINT "team_quotas_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_quotas" ADD CONSTRAINT "team_quotas_category_id_event_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."event_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_quotas" ADD CONSTRAINT "team_quotas_equipe_id_teams_id_fk" FOREIGN KEY ("equipe_id") REFERENCES "public"."teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "team_quotas_category_team_unique" ON "team_quotas" USING btree ("category_id","equipe_id");--> statement-breakpoint
CREATE INDEX "team_quotas_event_idx" ON "team_quotas" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "place_reservations_open_quota_idx" ON "place_reservations" USING btree ("team_quota_id") WHERE "place_reservations"."team_quota_id" is not null and "place_reservations"."released_at" is null;