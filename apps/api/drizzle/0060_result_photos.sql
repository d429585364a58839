CREATE TABLE "result_photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"url" text NOT NULL,
	"nome_arquivo" text NOT NULL,
	"numeros" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"status" text DEFAULT 'processando' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "result_photos_status" CHECK ("result_photos"."status" in ('processando', 'pronta', 'falhou'))
);
--> statement-breakpoint
ALTER TABLE "photos" DROP CONSTRAINT "photos_folder";--> statement-breakpoint
ALTER TABLE "result_photos" ADD CONSTRAINT "result_photos_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "result_photos_url_unique" ON "result_photos" USING btree ("url");--> statement-breakpoint
CREATE INDEX "result_photos_event_idx" ON "result_photos" USING btree ("event_id","nome_arquivo");--> statement-breakpoint
CREATE INDEX "result_photos_bibs_idx" ON "result_photos" USING gin ("numeros");--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_folder" CHECK ("photos"."folder" in ('produtos', 'eventos', 'banners', 'resultados'));