CREATE TABLE "recovery_whatsapp" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"consentimento_em" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recovery_whatsapp" ADD CONSTRAINT "recovery_whatsapp_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;