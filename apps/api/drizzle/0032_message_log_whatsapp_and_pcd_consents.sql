CREATE TABLE "message_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"job_id" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_log_attempts_positive" CHECK ("message_log"."attempts" > 0)
);
--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "pcd_consentimento_versao" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "pcd_consentimento_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "whatsapp_consentimento_versao" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "whatsapp_consentimento_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "lembrete_kit_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "whatsapp_consentimento_versao" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "whatsapp_consentimento_em" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "message_log_job_recipient_idx" ON "message_log" USING btree ("job_id","channel","recipient");--> statement-breakpoint
CREATE INDEX "message_log_created_at_idx" ON "message_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "message_log_failed_idx" ON "message_log" USING btree ("updated_at") WHERE "message_log"."status" = 'failed';