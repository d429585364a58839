CREATE TABLE "price_rule_list_entries" (
	"rule_id" integer NOT NULL,
	"cpf" text NOT NULL,
	CONSTRAINT "price_rule_list_entries_rule_id_cpf_pk" PRIMARY KEY("rule_id","cpf")
);
--> statement-breakpoint
CREATE TABLE "price_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"publico" text NOT NULL,
	"nome" text NOT NULL,
	"desconto" text NOT NULL,
	"preco_fixo_cents" integer,
	"limite_vagas" integer,
	"limite_percentual" integer,
	"ate_data" date,
	"exige_comprovante" boolean DEFAULT true NOT NULL,
	"prazo_analise_horas" integer DEFAULT 72 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "price_rules_audience" CHECK ("price_rules"."publico" in ('estudante', 'professor', 'pcd', 'lista')),
	CONSTRAINT "price_rules_discount" CHECK ("price_rules"."desconto" in ('meia', 'preco_fixo', 'gratis')),
	CONSTRAINT "price_rules_fixed_price" CHECK (("price_rules"."desconto" = 'preco_fixo') = ("price_rules"."preco_fixo_cents" is not null) and coalesce("price_rules"."preco_fixo_cents", 0) >= 0),
	CONSTRAINT "price_rules_cap_places" CHECK ("price_rules"."limite_vagas" is null or "price_rules"."limite_vagas" >= 0),
	CONSTRAINT "price_rules_cap_percent" CHECK ("price_rules"."limite_percentual" is null or "price_rules"."limite_percentual" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "price_rule_proofs" (
	"id" serial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"user_id" integer,
	"arquivo" text,
	"tipo" text NOT NULL,
	"bytes" integer NOT NULL,
	"registration_id" integer,
	"rule_id" integer,
	"situacao" text DEFAULT 'enviado' NOT NULL,
	"prazo" timestamp with time zone,
	"analisado_em" timestamp with time zone,
	"analisado_por" text,
	"motivo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_rule_proofs_token_unique" UNIQUE("token"),
	CONSTRAINT "price_rule_proofs_status" CHECK ("price_rule_proofs"."situacao" in ('enviado', 'pendente', 'aprovado', 'recusado'))
);
--> statement-breakpoint
ALTER TABLE "place_reservations" ADD COLUMN "price_rule_id" integer;--> statement-breakpoint
ALTER TABLE "registration_categories" ADD COLUMN "price_rule_id" integer;--> statement-breakpoint
ALTER TABLE "price_rule_list_entries" ADD CONSTRAINT "price_rule_list_entries_rule_id_price_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."price_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_rules" ADD CONSTRAINT "price_rules_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_rules" ADD CONSTRAINT "price_rules_category_id_event_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."event_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_rule_proofs" ADD CONSTRAINT "price_rule_proofs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_rule_proofs" ADD CONSTRAINT "price_rule_proofs_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_rule_proofs" ADD CONSTRAINT "price_rule_proofs_rule_id_price_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."price_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_rules_event_idx" ON "price_rules" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "price_rule_proofs_registration_unique" ON "price_rule_proofs" USING btree ("registration_id");--> statement-breakpoint
CREATE INDEX "price_rule_proofs_pending_idx" ON "price_rule_proofs" USING btree ("prazo") WHERE "price_rule_proofs"."situacao" = 'pendente';--> statement-breakpoint
ALTER TABLE "place_reservations" ADD CONSTRAINT "place_reservations_price_rule_id_price_rules_id_fk" FOREIGN KEY ("price_rule_id") REFERENCES "public"."price_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_categories" ADD CONSTRAINT "registration_categories_price_rule_id_price_rules_id_fk" FOREIGN KEY ("price_rule_id") REFERENCES "public"."price_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "place_reservations_open_rule_idx" ON "place_reservations" USING btree ("price_rule_id") WHERE "place_reservations"."price_rule_id" is not null and "place_reservations"."released_at" is null;