CREATE TABLE "waitlist_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"category_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"nome_completo" text NOT NULL,
	"cpf" text NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'aguardando' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"offered_at" timestamp with time zone,
	"offer_expires_at" timestamp with time zone,
	"charge_id" integer,
	"ended_at" timestamp with time zone,
	"link_nonce" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "waitlist_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"entry_id" integer NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "waitlist_category_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_category_id_event_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."event_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_history" ADD CONSTRAINT "waitlist_history_entry_id_waitlist_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."waitlist_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_cpf_unique" ON "waitlist_entries" USING btree ("category_id","cpf") WHERE "waitlist_entries"."status" in ('aguardando', 'oferta', 'aceita');--> statement-breakpoint
CREATE INDEX "waitlist_entries_category_status_idx" ON "waitlist_entries" USING btree ("category_id","status","id");--> statement-breakpoint
CREATE INDEX "waitlist_entries_charge_idx" ON "waitlist_entries" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "waitlist_history_entry_idx" ON "waitlist_history" USING btree ("entry_id");