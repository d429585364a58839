CREATE TABLE "fiscal_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"access_token" text NOT NULL,
	"order_id" integer,
	"registration_id" integer,
	"return_id" integer,
	"status" text DEFAULT 'pendente' NOT NULL,
	"reason" text,
	"provider" text NOT NULL,
	"number" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"amount_cents" integer NOT NULL,
	"access_key" text,
	"provider_number" text,
	"series" text,
	"protocol" text,
	"verification_code" text,
	"rejection_code" text,
	"pdf" "bytea",
	"xml" "bytea",
	"attempts" integer DEFAULT 0 NOT NULL,
	"authorised_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fiscal_documents_ref_unique" UNIQUE("ref")
);
--> statement-breakpoint
CREATE TABLE "fiscal_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"cnpj" text DEFAULT '' NOT NULL,
	"ie" text DEFAULT '' NOT NULL,
	"im" text DEFAULT '' NOT NULL,
	"legal_name" text DEFAULT '' NOT NULL,
	"regime" text DEFAULT 'simples_nacional' NOT NULL,
	"street" text DEFAULT '' NOT NULL,
	"number" text DEFAULT '' NOT NULL,
	"district" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"city_code" text DEFAULT '' NOT NULL,
	"uf" text DEFAULT '' NOT NULL,
	"cep" text DEFAULT '' NOT NULL,
	"nfse_service_code" text DEFAULT '' NOT NULL,
	"nfe_series" integer DEFAULT 1 NOT NULL,
	"next_nfe_number" integer DEFAULT 1 NOT NULL,
	"next_nfse_number" integer DEFAULT 1 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fiscal_settings_one_row" CHECK ("fiscal_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "fiscal_tax_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"destination" text NOT NULL,
	"cfop" text NOT NULL,
	"icms_situation" text NOT NULL,
	"pis_situation" text NOT NULL,
	"cofins_situation" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_fiscal" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"ncm" text NOT NULL,
	"origin" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fiscal_documents" ADD CONSTRAINT "fiscal_documents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_documents" ADD CONSTRAINT "fiscal_documents_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_fiscal" ADD CONSTRAINT "product_fiscal_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fiscal_documents_order_idx" ON "fiscal_documents" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "fiscal_documents_registration_idx" ON "fiscal_documents" USING btree ("registration_id");--> statement-breakpoint
CREATE INDEX "fiscal_documents_status_idx" ON "fiscal_documents" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "fiscal_tax_rules_destination_idx" ON "fiscal_tax_rules" USING btree ("destination");