CREATE TABLE "category_lots" (
	"id" serial PRIMARY KEY NOT NULL,
	"category_id" integer NOT NULL,
	"posicao" integer NOT NULL,
	"nome" text NOT NULL,
	"preco_cents" integer NOT NULL,
	"ate_data" date,
	"ate_inscricoes" integer
);
--> statement-breakpoint
CREATE TABLE "event_kit_sizes" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"tamanho" text NOT NULL,
	"quantidade_disponivel" integer NOT NULL,
	"posicao" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "event_kit_sizes_left_non_negative" CHECK ("event_kit_sizes"."quantidade_disponivel" >= 0)
);
--> statement-breakpoint
CREATE TABLE "kit_reservations" (
	"id" serial PRIMARY KEY NOT NULL,
	"charge_id" integer NOT NULL,
	"kit_size_id" integer NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "kit_local_retirada" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "kit_horarios_retirada" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "termo_responsabilidade" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "oferece_pcd" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_categories" ADD COLUMN "lote" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "tamanho_camisa" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "equipe" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "contato_emergencia_nome" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "contato_emergencia_telefone" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "pcd" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "termo_versao" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "termo_aceito_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "meia_entrada" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "category_lots" ADD CONSTRAINT "category_lots_category_id_event_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."event_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_kit_sizes" ADD CONSTRAINT "event_kit_sizes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_reservations" ADD CONSTRAINT "kit_reservations_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_reservations" ADD CONSTRAINT "kit_reservations_kit_size_id_event_kit_sizes_id_fk" FOREIGN KEY ("kit_size_id") REFERENCES "public"."event_kit_sizes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "category_lots_category_idx" ON "category_lots" USING btree ("category_id","posicao");--> statement-breakpoint
CREATE UNIQUE INDEX "event_kit_sizes_event_size_unique" ON "event_kit_sizes" USING btree ("event_id","tamanho");--> statement-breakpoint
CREATE INDEX "kit_reservations_charge_idx" ON "kit_reservations" USING btree ("charge_id");