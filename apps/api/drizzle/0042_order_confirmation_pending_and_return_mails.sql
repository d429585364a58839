ALTER TABLE "orders" ADD COLUMN "confirmacao_pendente" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "order_return_events" ADD COLUMN "mailed_at" timestamp with time zone;