ALTER TABLE "whatsapp_opt_outs" ALTER COLUMN "message_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "dados_pessoais_apagados_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_opt_outs" ADD COLUMN "staff_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "dados_pessoais_apagados_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_opt_outs" ADD CONSTRAINT "whatsapp_opt_outs_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;