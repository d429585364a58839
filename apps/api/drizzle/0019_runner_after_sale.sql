CREATE TABLE "event_after_sale_rules" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"cancel_min_hours" integer NOT NULL,
	"cancel_after_window" text NOT NULL,
	"cancel_fee_cents" integer NOT NULL,
	"cancel_kept_percent" integer NOT NULL,
	"transfer_allowed" boolean NOT NULL,
	"transfer_until" date,
	"transfer_fee_cents" integer NOT NULL,
	"category_change_allowed" boolean NOT NULL,
	"category_change_until" date,
	"category_change_fee_cents" integer NOT NULL,
	"category_change_refunds_difference" boolean NOT NULL,
	"size_change_allowed" boolean NOT NULL,
	"size_change_until" date,
	"waitlist_offer_hours" integer NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "event_after_sale_rules_amounts" CHECK ("event_after_sale_rules"."cancel_min_hours" >= 0 and "event_after_sale_rules"."cancel_fee_cents" >= 0 and "event_after_sale_rules"."transfer_fee_cents" >= 0 and "event_after_sale_rules"."category_change_fee_cents" >= 0 and "event_after_sale_rules"."cancel_kept_percent" between 0 and 100 and "event_after_sale_rules"."waitlist_offer_hours" > 0)
);
--> statement-breakpoint
CREATE TABLE "registration_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_id" integer NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fee_cents" integer DEFAULT 0 NOT NULL,
	"refund_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD CONSTRAINT "event_after_sale_rules_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_changes" ADD CONSTRAINT "registration_changes_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registration_changes_registration_idx" ON "registration_changes" USING btree ("registration_id");