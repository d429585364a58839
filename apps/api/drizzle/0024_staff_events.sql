CREATE TABLE "staff_events" (
	"staff_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	CONSTRAINT "staff_events_staff_id_event_id_pk" PRIMARY KEY("staff_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "staff_events" ADD CONSTRAINT "staff_events_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_events" ADD CONSTRAINT "staff_events_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_events_event_idx" ON "staff_events" USING btree ("event_id");