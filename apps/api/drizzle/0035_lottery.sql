CREATE TABLE "lottery_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"full_name" text NOT NULL,
	"cpf" text NOT NULL,
	"email" text NOT NULL,
	"birth_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rank" integer,
	"won_in_draw" integer,
	"pay_by" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "opening_lotteries" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"entries_from" timestamp with time zone NOT NULL,
	"entries_until" timestamp with time zone NOT NULL,
	"places" integer NOT NULL,
	"pay_hours" integer NOT NULL,
	"seed" text,
	"commitment" text,
	"committed_at" timestamp with time zone,
	"drawn_at" timestamp with time zone,
	"draws" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "opening_lotteries_numbers_check" CHECK ("opening_lotteries"."places" >= 1 and "opening_lotteries"."pay_hours" >= 1 and "opening_lotteries"."entries_until" > "opening_lotteries"."entries_from")
);
--> statement-breakpoint
ALTER TABLE "lottery_entries" ADD CONSTRAINT "lottery_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lottery_entries" ADD CONSTRAINT "lottery_entries_category_id_event_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."event_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lottery_entries" ADD CONSTRAINT "lottery_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opening_lotteries" ADD CONSTRAINT "opening_lotteries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lottery_entries_event_cpf_idx" ON "lottery_entries" USING btree ("event_id","cpf");--> statement-breakpoint
CREATE INDEX "lottery_entries_user_idx" ON "lottery_entries" USING btree ("user_id");