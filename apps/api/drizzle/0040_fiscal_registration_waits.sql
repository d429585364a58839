CREATE TABLE "fiscal_registration_waits" (
	"registration_id" integer PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"period" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fiscal_registration_waits" ADD CONSTRAINT "fiscal_registration_waits_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_registration_waits" ADD CONSTRAINT "fiscal_registration_waits_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fiscal_registration_waits_event_period_idx" ON "fiscal_registration_waits" USING btree ("event_id","period");