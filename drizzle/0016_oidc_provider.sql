CREATE TABLE "oauth_clients" (
	"tenant_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"first_party" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_clients_tenant_id_client_id_pk" PRIMARY KEY("tenant_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_consents" (
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_consents_tenant_id_user_id_client_id_pk" PRIMARY KEY("tenant_id","user_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "openid_models" (
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"account_id" text,
	"consumed_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "openid_models_tenant_id_kind_id_pk" PRIMARY KEY("tenant_id","kind","id")
);
--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_consents" ADD CONSTRAINT "oauth_consents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_consents" ADD CONSTRAINT "oauth_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "openid_models" ADD CONSTRAINT "openid_models_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "openid_models_grant" ON "openid_models" USING btree ("tenant_id","grant_id") WHERE "openid_models"."grant_id" is not null;--> statement-breakpoint
CREATE INDEX "openid_models_uid" ON "openid_models" USING btree ("tenant_id","kind","uid") WHERE "openid_models"."uid" is not null;--> statement-breakpoint
CREATE INDEX "openid_models_expires" ON "openid_models" USING btree ("expires_at");