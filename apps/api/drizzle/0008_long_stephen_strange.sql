ALTER TABLE "orders" ADD COLUMN "buyer_cpf" text;--> statement-breakpoint
CREATE INDEX "orders_buyer_cpf_idx" ON "orders" USING btree ("buyer_cpf");