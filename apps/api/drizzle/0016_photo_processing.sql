CREATE TABLE "photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'processando' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "photos_name_unique" UNIQUE("name"),
	CONSTRAINT "photos_folder" CHECK ("photos"."folder" in ('produtos', 'eventos'))
);
--> statement-breakpoint
ALTER TABLE "product_images" ADD COLUMN "status" text DEFAULT 'pronta' NOT NULL;