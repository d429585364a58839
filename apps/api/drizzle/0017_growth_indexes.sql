CREATE INDEX "place_reservations_open_category_idx" ON "place_reservations" USING btree ("category_id") WHERE "place_reservations"."released_at" is null;--> statement-breakpoint
CREATE INDEX "registration_categories_registration_idx" ON "registration_categories" USING btree ("registration_id");--> statement-breakpoint
CREATE INDEX "order_items_order_idx" ON "order_items" USING btree ("order_id");