CREATE TABLE "home_banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"position" integer NOT NULL,
	"image_url" text NOT NULL,
	"text" text NOT NULL,
	"link" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "photos" DROP CONSTRAINT "photos_folder";--> statement-breakpoint
ALTER TABLE "product_images" ADD COLUMN "alt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_images" ADD COLUMN "color_id" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "home_position" integer;--> statement-breakpoint
CREATE INDEX "home_banners_position_idx" ON "home_banners" USING btree ("position");--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_color_id_colors_id_fk" FOREIGN KEY ("color_id") REFERENCES "public"."colors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "colors_name_lower_idx" ON "colors" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "sizes_name_lower_idx" ON "sizes" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_folder" CHECK ("photos"."folder" in ('produtos', 'eventos', 'banners'));--> statement-breakpoint
-- Hand-written (docs/decisions/0034): the featured products keep today's order (by id), and the home
-- slider keeps its collection slide, now linking to the women's page.
UPDATE "products" SET "home_position" = ranked.n
FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS n FROM "products" WHERE "aparecer_home") AS ranked
WHERE "products"."id" = ranked."id";--> statement-breakpoint
INSERT INTO "home_banners" ("position", "image_url", "text", "link")
VALUES (1, '/media/banner-colecao.svg', 'Nova coleção Passada: roupas de corrida feitas para o calor do Nordeste', '/feminino');
