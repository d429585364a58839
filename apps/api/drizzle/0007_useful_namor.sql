CREATE TABLE "coupon_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"coupon_id" integer NOT NULL,
	"charge_id" integer NOT NULL,
	"user_id" integer,
	"cpf" text,
	"status" text NOT NULL,
	"discount_cents" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "coupon_uses_charge_id_unique" UNIQUE("charge_id")
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"percent" integer,
	"amount_cents" integer,
	"valid_from" date,
	"valid_until" date,
	"max_uses" integer,
	"max_uses_per_cpf" integer,
	"max_uses_per_account" integer,
	"min_amount_cents" integer,
	"scope" text NOT NULL,
	"product_categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"event_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"event_category_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_value_matches_kind" CHECK (("coupons"."kind" = 'percentual' and "coupons"."percent" between 1 and 100 and "coupons"."amount_cents" is null)
        or ("coupons"."kind" = 'fixo' and "coupons"."amount_cents" > 0 and "coupons"."percent" is null))
);
--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "coupon_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_code" text;--> statement-breakpoint
ALTER TABLE "coupon_uses" ADD CONSTRAINT "coupon_uses_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_uses" ADD CONSTRAINT "coupon_uses_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_uses" ADD CONSTRAINT "coupon_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coupon_uses_coupon_idx" ON "coupon_uses" USING btree ("coupon_id","status");--> statement-breakpoint
CREATE INDEX "coupon_uses_user_idx" ON "coupon_uses" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_code_unique" ON "coupons" USING btree (lower("code"));