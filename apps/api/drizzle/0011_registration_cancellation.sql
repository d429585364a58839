DROP INDEX "registration_categories_cpf_unique";--> statement-breakpoint
ALTER TABLE "registration_categories" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "registration_categories_cpf_unique" ON "registration_categories" USING btree ("category_id","cpf") WHERE "registration_categories"."cancelled_at" is null;