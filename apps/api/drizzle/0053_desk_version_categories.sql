-- The desk's snapshot shows each race's name and start wave (docs/decisions/0063 and 0066, later): renaming
-- a category or changing its waves moves the snapshot's version as a registration's write does, so a desk
-- with the old names downloads the new ones instead of a 304. Like the registrations' triggers, it only
-- adds a row to event_desk_changes for the event.
CREATE FUNCTION "event_desk_category_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
  ev integer;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME = 'event_categories' THEN
    SELECT d.event_id INTO ev FROM event_days d WHERE d.id = changed.day_id;
  ELSE
    SELECT d.event_id INTO ev FROM event_categories c JOIN event_days d ON d.id = c.day_id
     WHERE c.id = changed.category_id;
  END IF;
  IF ev IS NOT NULL THEN
    INSERT INTO event_desk_changes (event_id) VALUES (ev);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "event_categories_desk_version" AFTER UPDATE OF "nome_categoria" ON "event_categories"
  FOR EACH ROW WHEN (OLD."nome_categoria" IS DISTINCT FROM NEW."nome_categoria")
  EXECUTE FUNCTION "event_desk_category_bump"();
--> statement-breakpoint
CREATE TRIGGER "event_category_waves_desk_version" AFTER INSERT OR UPDATE OR DELETE ON "event_category_waves"
  FOR EACH ROW EXECUTE FUNCTION "event_desk_category_bump"();
