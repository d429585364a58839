CREATE TABLE "whatsapp_opt_outs" (
	"phone" text PRIMARY KEY NOT NULL,
	"request" text NOT NULL,
	"message_id" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "message_log" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "message_log" ADD COLUMN "delivery" text;--> statement-breakpoint
ALTER TABLE "message_log" ADD COLUMN "delivery_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_log" ADD COLUMN "delivery_error" text;--> statement-breakpoint
CREATE UNIQUE INDEX "message_log_provider_message_idx" ON "message_log" USING btree ("provider_message_id");