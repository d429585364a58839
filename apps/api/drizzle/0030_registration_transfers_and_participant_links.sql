CREATE TABLE "registration_transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"status" text NOT NULL,
	"actor" text NOT NULL,
	"to_name" text NOT NULL,
	"to_cpf" text NOT NULL,
	"to_email" text NOT NULL,
	"from_name" text NOT NULL,
	"from_email" text NOT NULL,
	"fee_cents" integer NOT NULL,
	"charge_id" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "registration_transfers_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "participant_link_nonce" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_transfers" ADD CONSTRAINT "registration_transfers_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_transfers" ADD CONSTRAINT "registration_transfers_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "registration_transfers_one_pending" ON "registration_transfers" USING btree ("registration_id") WHERE "registration_transfers"."status" = 'pendente';--> statement-breakpoint
CREATE INDEX "registration_transfers_charge_idx" ON "registration_transfers" USING btree ("charge_id");