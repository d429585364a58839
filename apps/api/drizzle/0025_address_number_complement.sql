ALTER TABLE "addresses" ADD COLUMN "number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN "complement" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Addresses kept before the number had a field of its own: "Av. Beira Mar, 100" becomes street and number.
UPDATE "addresses" SET "number" = substring("street" from ',\s*(\d[[:alnum:]-]*)\s*$'), "street" = regexp_replace("street", ',\s*\d[[:alnum:]-]*\s*$', '') WHERE "street" ~ ',\s*\d[[:alnum:]-]*\s*$';
