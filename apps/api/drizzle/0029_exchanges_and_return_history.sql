CREATE TABLE "order_exchange_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"return_id" integer NOT NULL,
	"order_item_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"color_id" integer NOT NULL,
	"size_id" integer NOT NULL,
	"color_name" text NOT NULL,
	"size_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"held" boolean DEFAULT true NOT NULL,
	CONSTRAINT "order_exchange_items_quantity_positive" CHECK ("order_exchange_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "order_return_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"return_id" integer NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "charge_refunds" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "order_returns" ADD COLUMN "difference_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_returns" ADD COLUMN "difference_charge_id" integer;--> statement-breakpoint
ALTER TABLE "order_returns" ADD COLUMN "exchange_tracking_code" text;--> statement-breakpoint
ALTER TABLE "order_exchange_items" ADD CONSTRAINT "order_exchange_items_return_id_order_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."order_returns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_exchange_items" ADD CONSTRAINT "order_exchange_items_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_exchange_items" ADD CONSTRAINT "order_exchange_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_exchange_items" ADD CONSTRAINT "order_exchange_items_color_id_colors_id_fk" FOREIGN KEY ("color_id") REFERENCES "public"."colors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_exchange_items" ADD CONSTRAINT "order_exchange_items_size_id_sizes_id_fk" FOREIGN KEY ("size_id") REFERENCES "public"."sizes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_return_events" ADD CONSTRAINT "order_return_events_return_id_order_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."order_returns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_exchange_items_return_idx" ON "order_exchange_items" USING btree ("return_id");--> statement-breakpoint
CREATE INDEX "order_return_events_return_idx" ON "order_return_events" USING btree ("return_id");--> statement-breakpoint
ALTER TABLE "order_returns" ADD CONSTRAINT "order_returns_difference_charge_id_unique" UNIQUE("difference_charge_id");