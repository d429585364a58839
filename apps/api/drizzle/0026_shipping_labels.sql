CREATE TABLE "shipping_labels" (
	"order_id" integer PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"claimed_until" timestamp with time zone,
	"provider_ref" text,
	"tracking_code" text,
	"price_cents" integer,
	"request" jsonb NOT NULL,
	"staff_name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"purchased_at" timestamp with time zone,
	"tracking_state" text DEFAULT 'aguardando_postagem' NOT NULL,
	"tracked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "shipping_labels" ADD CONSTRAINT "shipping_labels_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipping_labels_tracking_idx" ON "shipping_labels" USING btree ("status","tracking_state");