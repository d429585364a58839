CREATE TABLE "event_result_links" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"camisa_finisher_id" integer,
	"proxima_edicao_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_result_links" ADD CONSTRAINT "event_result_links_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_result_links" ADD CONSTRAINT "event_result_links_camisa_finisher_id_products_id_fk" FOREIGN KEY ("camisa_finisher_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_result_links" ADD CONSTRAINT "event_result_links_proxima_edicao_id_events_id_fk" FOREIGN KEY ("proxima_edicao_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Published results show their event's name, date and city (docs/decisions/0064, later): a change to one
-- of them notifies results_changed, as a name a result shows does (0051), so the results answers kept in
-- each process are dropped; the events' own notification fires on every place held and is not listened to.
CREATE FUNCTION "results_event_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM event_results er WHERE er.event_id = NEW.id)
     OR EXISTS (SELECT 1 FROM event_result_links l WHERE l.proxima_edicao_id = NEW.id) THEN
    PERFORM pg_notify('results_changed', NEW.id::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "events_results_changed" AFTER UPDATE OF "nome_evento", "start_data_evento", "city" ON "events"
  FOR EACH ROW
  WHEN (OLD."nome_evento" IS DISTINCT FROM NEW."nome_evento" OR OLD."start_data_evento" IS DISTINCT FROM NEW."start_data_evento"
    OR OLD."city" IS DISTINCT FROM NEW."city")
  EXECUTE FUNCTION "results_event_changed_notify"();
