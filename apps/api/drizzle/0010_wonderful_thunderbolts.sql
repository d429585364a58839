ALTER TABLE "registrations" DROP CONSTRAINT "registrations_charge_id_unique";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "shipping_service" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "address" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_charge_event_cpf_unique" ON "registrations" USING btree ("charge_id","event_id","cpf");--> statement-breakpoint
CREATE INDEX "registrations_order_idx" ON "registrations" USING btree ("order_id");