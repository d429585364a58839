ALTER TABLE "products" ADD COLUMN "rascunho" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "publicar_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_publish_at_draft" CHECK ("products"."publicar_em" is null or "products"."rascunho");