-- Published results show the runner's name, team and gender from the registration (docs/decisions/0064,
-- later): when one of those changes on a registration whose event has results (a correction, a transfer,
-- an erasure), every process's cached results answers and pages are dropped on commit, as a publication
-- drops them. Only a notification: nothing is written.
CREATE FUNCTION "results_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF EXISTS (SELECT 1 FROM event_results er WHERE er.event_id = changed.event_id) THEN
    PERFORM pg_notify('results_changed', changed.event_id::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registrations_results_changed" AFTER UPDATE OF "nome_completo", "equipe", "genero" ON "registrations"
  FOR EACH ROW
  WHEN (OLD."nome_completo" IS DISTINCT FROM NEW."nome_completo" OR OLD."equipe" IS DISTINCT FROM NEW."equipe"
    OR OLD."genero" IS DISTINCT FROM NEW."genero")
  EXECUTE FUNCTION "results_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "registrations_results_deleted" AFTER DELETE ON "registrations"
  FOR EACH ROW EXECUTE FUNCTION "results_changed_notify"();
