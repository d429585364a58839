CREATE TABLE "teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer,
	"nome" text NOT NULL,
	"capitao_user_id" integer,
	"codigo" text NOT NULL,
	"fechada_em" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "equipe_id" integer;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_capitao_user_id_users_id_fk" FOREIGN KEY ("capitao_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "teams_code_unique" ON "teams" USING btree ("codigo");--> statement-breakpoint
CREATE INDEX "teams_captain_idx" ON "teams" USING btree ("capitao_user_id");--> statement-breakpoint
CREATE INDEX "teams_event_idx" ON "teams" USING btree ("event_id");--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_equipe_id_teams_id_fk" FOREIGN KEY ("equipe_id") REFERENCES "public"."teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registrations_team_idx" ON "registrations" USING btree ("equipe_id");