CREATE TABLE "oauth_session_clients" (
	"tenant_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_session_clients_tenant_id_session_id_client_id_pk" PRIMARY KEY("tenant_id","session_id","client_id")
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "webhook_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "target" text;--> statement-breakpoint
ALTER TABLE "oauth_session_clients" ADD CONSTRAINT "oauth_session_clients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;