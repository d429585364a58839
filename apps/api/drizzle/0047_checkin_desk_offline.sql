CREATE TABLE "registration_offline_pickups" (
	"id" text PRIMARY KEY NOT NULL,
	"registration_id" integer NOT NULL,
	"mesa" text NOT NULL,
	"staff_id" integer,
	"staff_name" text NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "registration_checkins" ADD COLUMN "mesa" text;--> statement-breakpoint
ALTER TABLE "registration_offline_pickups" ADD CONSTRAINT "registration_offline_pickups_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_offline_pickups" ADD CONSTRAINT "registration_offline_pickups_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registration_offline_pickups_registration_idx" ON "registration_offline_pickups" USING btree ("registration_id");