CREATE TABLE "team_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"equipe_id" integer NOT NULL,
	"nome" text NOT NULL,
	"email" text NOT NULL,
	"token" text NOT NULL,
	"situacao" text DEFAULT 'pendente' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"respondido_em" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "team_invites" ADD CONSTRAINT "team_invites_equipe_id_teams_id_fk" FOREIGN KEY ("equipe_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "team_invites_token_unique" ON "team_invites" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "team_invites_team_email_unique" ON "team_invites" USING btree ("equipe_id",lower("email"));--> statement-breakpoint
CREATE INDEX "team_invites_created_idx" ON "team_invites" USING btree ("created_at");