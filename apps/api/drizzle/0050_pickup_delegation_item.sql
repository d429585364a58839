CREATE TABLE "event_desk_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "delegation_allowed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "delegation_refused_senior_half" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "pickup_item" text;--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "pickup_item_unit" text;--> statement-breakpoint
ALTER TABLE "event_after_sale_rules" ADD COLUMN "pickup_item_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_checkins" ADD COLUMN "retirado_por" text DEFAULT 'titular' NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_checkins" ADD COLUMN "retirado_por_nome" text;--> statement-breakpoint
ALTER TABLE "registration_checkins" ADD COLUMN "item_quantidade" numeric(10, 3);--> statement-breakpoint
ALTER TABLE "registration_offline_pickups" ADD COLUMN "retirado_por" text DEFAULT 'titular' NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_offline_pickups" ADD COLUMN "item_quantidade" numeric(10, 3);--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "retirada_autorizada_nome" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "retirada_autorizada_cpf" text;--> statement-breakpoint
CREATE INDEX "event_desk_changes_event_idx" ON "event_desk_changes" USING btree ("event_id");
--> statement-breakpoint
-- The desk's snapshot version (docs/decisions/0063, later): every write to what a snapshot holds adds a
-- row for its event (insert-only: no lock shared by the event's writes); their count is the ETag's.
CREATE FUNCTION "event_desk_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
  ev integer;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME IN ('registrations', 'event_after_sale_rules') THEN
    ev := changed.event_id;
  ELSE
    SELECT r.event_id INTO ev FROM registrations r WHERE r.id = changed.registration_id;
  END IF;
  IF ev IS NOT NULL THEN
    INSERT INTO event_desk_changes (event_id) VALUES (ev);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registrations_desk_version" AFTER INSERT OR UPDATE OR DELETE ON "registrations" FOR EACH ROW EXECUTE FUNCTION "event_desk_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "registration_categories_desk_version" AFTER INSERT OR UPDATE OR DELETE ON "registration_categories" FOR EACH ROW EXECUTE FUNCTION "event_desk_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "registration_checkins_desk_version" AFTER INSERT OR UPDATE OR DELETE ON "registration_checkins" FOR EACH ROW EXECUTE FUNCTION "event_desk_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "registration_transfers_desk_version" AFTER INSERT OR UPDATE OR DELETE ON "registration_transfers" FOR EACH ROW EXECUTE FUNCTION "event_desk_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "event_after_sale_rules_desk_version" AFTER INSERT OR UPDATE OR DELETE ON "event_after_sale_rules" FOR EACH ROW EXECUTE FUNCTION "event_desk_version_bump"();
