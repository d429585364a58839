ALTER TABLE "shipping_labels" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipping_labels" ADD COLUMN "cancel_refusal" text;