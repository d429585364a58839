CREATE TABLE "fiscal_document_registrations" (
	"registration_id" integer PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"amount_cents" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fiscal_documents" ADD COLUMN "event_id" integer;--> statement-breakpoint
ALTER TABLE "fiscal_documents" ADD COLUMN "period" text;--> statement-breakpoint
ALTER TABLE "fiscal_document_registrations" ADD CONSTRAINT "fiscal_document_registrations_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_document_registrations" ADD CONSTRAINT "fiscal_document_registrations_document_id_fiscal_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."fiscal_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fiscal_document_registrations_document_idx" ON "fiscal_document_registrations" USING btree ("document_id");--> statement-breakpoint
ALTER TABLE "fiscal_documents" ADD CONSTRAINT "fiscal_documents_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;