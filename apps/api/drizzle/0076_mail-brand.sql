CREATE TABLE "mail_brand" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"logo_key" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_brand_single_row" CHECK ("mail_brand"."id" = 1)
);
