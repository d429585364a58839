DROP INDEX "lottery_entries_event_cpf_idx";--> statement-breakpoint
ALTER TABLE "lottery_entries" ALTER COLUMN "birth_date" DROP NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "lottery_entries_event_cpf_idx" ON "lottery_entries" USING btree ("event_id","cpf") WHERE "lottery_entries"."cpf" <> '';