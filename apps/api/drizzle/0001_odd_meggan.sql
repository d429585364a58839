CREATE TABLE "charge_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"charge_id" integer NOT NULL,
	"refund_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "charge_refunds_charge_id_unique" UNIQUE("charge_id"),
	CONSTRAINT "charge_refunds_refund_id_unique" UNIQUE("refund_id")
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"charge_id" integer NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"raw" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "provider_charge_id" text;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "provider_status" text;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "installment_value_cents" integer;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "attention" text;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "charge_refunds" ADD CONSTRAINT "charge_refunds_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_events_charge_idx" ON "payment_events" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "charges_user_idx" ON "charges" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "charges_user_idempotency_key_idx" ON "charges" USING btree ("user_id","idempotency_key");