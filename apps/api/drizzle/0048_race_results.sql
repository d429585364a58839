CREATE TABLE "event_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"import_id" integer NOT NULL,
	"registration_category_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"dia" date NOT NULL,
	"numero_peito" integer NOT NULL,
	"situacao" text NOT NULL,
	"tempo_bruto_ms" integer,
	"tempo_liquido_ms" integer,
	"faixa_etaria" text NOT NULL,
	"colocacao_geral" integer,
	"colocacao_genero" integer,
	"colocacao_faixa" integer,
	CONSTRAINT "event_results_status" CHECK ("event_results"."situacao" in ('OK', 'DNF', 'DSQ', 'DNS')),
	CONSTRAINT "event_results_finisher_time" CHECK ("event_results"."situacao" <> 'OK' or "event_results"."tempo_bruto_ms" is not null)
);
--> statement-breakpoint
CREATE TABLE "result_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"timer_id" integer NOT NULL,
	"dia" date,
	"nome_arquivo" text DEFAULT '' NOT NULL,
	"linhas" jsonb NOT NULL,
	"situacao" text DEFAULT 'previa' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "result_imports_status" CHECK ("result_imports"."situacao" in ('previa', 'publicada', 'substituida'))
);
--> statement-breakpoint
CREATE TABLE "result_timers" (
	"id" serial PRIMARY KEY NOT NULL,
	"nome" text NOT NULL,
	"colunas" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_results" ADD CONSTRAINT "event_results_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_results" ADD CONSTRAINT "event_results_import_id_result_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."result_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_results" ADD CONSTRAINT "event_results_registration_category_id_registration_categories_id_fk" FOREIGN KEY ("registration_category_id") REFERENCES "public"."registration_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_results" ADD CONSTRAINT "event_results_category_id_event_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."event_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_imports" ADD CONSTRAINT "result_imports_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_imports" ADD CONSTRAINT "result_imports_timer_id_result_timers_id_fk" FOREIGN KEY ("timer_id") REFERENCES "public"."result_timers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_results_entry_unique" ON "event_results" USING btree ("registration_category_id");--> statement-breakpoint
CREATE INDEX "event_results_event_idx" ON "event_results" USING btree ("event_id","category_id");--> statement-breakpoint
CREATE INDEX "event_results_bib_idx" ON "event_results" USING btree ("event_id","numero_peito");--> statement-breakpoint
CREATE INDEX "result_imports_event_idx" ON "result_imports" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "result_timers_name_unique" ON "result_timers" USING btree (lower("nome"));