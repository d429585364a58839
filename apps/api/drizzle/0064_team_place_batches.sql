CREATE TABLE "team_place_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"equipe_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"charge_id" integer NOT NULL,
	"quantidade" integer NOT NULL,
	"preco_centavos" integer NOT NULL,
	"token_resgate" text NOT NULL,
	"encerrado_em" timestamp with time zone,
	"nao_resgatadas_no_encerramento" integer,
	"devolvido_centavos" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_place_batches_amounts" CHECK ("team_place_batches"."quantidade" > 0 and "team_place_batches"."preco_centavos" >= 0)
);
--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "equipe_vagas_nao_resgatadas" text DEFAULT 'devolver' NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "lote_vagas_equipe_id" integer;--> statement-breakpoint
ALTER TABLE "team_place_batches" ADD CONSTRAINT "team_place_batches_equipe_id_teams_id_fk" FOREIGN KEY ("equipe_id") REFERENCES "public"."teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_place_batches" ADD CONSTRAINT "team_place_batches_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_place_batches" ADD CONSTRAINT "team_place_batches_category_id_event_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."event_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_place_batches" ADD CONSTRAINT "team_place_batches_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "team_place_batches_charge_unique" ON "team_place_batches" USING btree ("charge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_place_batches_token_unique" ON "team_place_batches" USING btree ("token_resgate");--> statement-breakpoint
CREATE INDEX "team_place_batches_team_idx" ON "team_place_batches" USING btree ("equipe_id");--> statement-breakpoint
CREATE INDEX "team_place_batches_open_idx" ON "team_place_batches" USING btree ("event_id") WHERE "team_place_batches"."encerrado_em" is null;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_lote_vagas_equipe_id_team_place_batches_id_fk" FOREIGN KEY ("lote_vagas_equipe_id") REFERENCES "public"."team_place_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registrations_team_batch_idx" ON "registrations" USING btree ("lote_vagas_equipe_id");