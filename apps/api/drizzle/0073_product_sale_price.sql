ALTER TABLE "products" ADD COLUMN "preco_promocional_centavos" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "promocao_inicio" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "promocao_fim" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_sale" CHECK (("products"."preco_promocional_centavos" is null and "products"."promocao_inicio" is null and "products"."promocao_fim" is null) or ("products"."preco_promocional_centavos" > 0 and "products"."promocao_fim" > "products"."promocao_inicio"));