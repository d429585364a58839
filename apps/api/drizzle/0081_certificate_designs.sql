CREATE TABLE "event_certificate_designs" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"layout" text NOT NULL,
	"color" text NOT NULL,
	"signature_name" text,
	"signature_role" text,
	"message" text,
	"version" integer DEFAULT 2 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_certificate_designs_layout" CHECK ("event_certificate_designs"."layout" in ('classico', 'faixa', 'minimalista')),
	CONSTRAINT "event_certificate_designs_color" CHECK ("event_certificate_designs"."color" ~ '^#[0-9A-F]{6}$')
);
--> statement-breakpoint
ALTER TABLE "event_certificate_designs" ADD CONSTRAINT "event_certificate_designs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;