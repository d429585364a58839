CREATE TABLE "carts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"items" jsonb NOT NULL,
	"started_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_opt_outs" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_reminders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"event_id" integer,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"active" boolean NOT NULL,
	"delay_minutes" integer NOT NULL,
	"lock_version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "recovery_settings_one_row" CHECK ("recovery_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_opt_outs" ADD CONSTRAINT "recovery_opt_outs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_reminders" ADD CONSTRAINT "recovery_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "carts_updated_idx" ON "carts" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_reminders_ref_unique" ON "recovery_reminders" USING btree ("kind","ref");--> statement-breakpoint
CREATE INDEX "recovery_reminders_user_idx" ON "recovery_reminders" USING btree ("user_id","sent_at");