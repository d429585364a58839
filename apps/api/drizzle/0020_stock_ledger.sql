CREATE TABLE "order_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"staff_name" text NOT NULL,
	"text" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stock_movements" ADD COLUMN "charge_id" integer;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_notes_order_idx" ON "order_notes" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_movements_charge_idx" ON "stock_movements" USING btree ("charge_id");--> statement-breakpoint
-- Hand-written (not generated): the opening balance of every colour × size's history
-- (docs/decisions/0033-stock-ledger-and-daily-orders.md). Until now only staff adjustments were
-- recorded, so a history summed to something other than the stock; one `saldo_inicial` movement
-- per combination whose history falls short makes sum(delta) = quantity from here on. It is dated just
-- before the combination's first movement, so the history reads in order.
INSERT INTO "stock_movements" ("product_id", "color_id", "size_id", "delta", "quantity_after", "reason", "note", "at")
SELECT s."product_id", s."color_id", s."size_id",
	s."quantity" - COALESCE(m."total", 0),
	s."quantity" - COALESCE(m."total", 0),
	'saldo_inicial',
	'Saldo de abertura do histórico',
	COALESCE(m."first_at" - interval '1 second', now())
FROM "stock" s
LEFT JOIN (
	SELECT "product_id", "color_id", "size_id", SUM("delta") AS "total", MIN("at") AS "first_at"
	FROM "stock_movements"
	GROUP BY "product_id", "color_id", "size_id"
) m ON m."product_id" = s."product_id" AND m."color_id" = s."color_id" AND m."size_id" = s."size_id"
WHERE s."quantity" - COALESCE(m."total", 0) <> 0;
