CREATE TABLE "event_openings" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"pre_queue_minutes" integer DEFAULT 30 NOT NULL,
	"admitted_per_minute" integer,
	"turn_minutes" integer DEFAULT 15 NOT NULL,
	"per_cpf" integer DEFAULT 1 NOT NULL,
	"per_buyer" integer DEFAULT 4 NOT NULL,
	"secret" text NOT NULL,
	"arrivals" integer DEFAULT 0 NOT NULL,
	"pre_queue_size" integer,
	"base_at" timestamp with time zone,
	"base_admitted" integer DEFAULT 0 NOT NULL,
	"per_minute" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_openings_mode_check" CHECK ("event_openings"."mode" in ('fila', 'sorteio')),
	CONSTRAINT "event_openings_numbers_check" CHECK ("event_openings"."pre_queue_minutes" >= 0 and "event_openings"."turn_minutes" >= 1 and "event_openings"."per_cpf" >= 1 and "event_openings"."per_buyer" >= 1 and ("event_openings"."admitted_per_minute" is null or "event_openings"."admitted_per_minute" >= 1))
);
--> statement-breakpoint
CREATE TABLE "opening_arrivals" (
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"number" integer NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "opening_arrivals_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "event_openings" ADD CONSTRAINT "event_openings_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opening_arrivals" ADD CONSTRAINT "opening_arrivals_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opening_arrivals" ADD CONSTRAINT "opening_arrivals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;