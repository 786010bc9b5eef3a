CREATE TABLE "identities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"provider_id" text NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"email_verified" boolean DEFAULT false NOT NULL,
	"claims" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tokens_sealed" text,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saml_assertions" (
	"tenant_id" uuid NOT NULL,
	"idp_id" uuid NOT NULL,
	"assertion_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_assertions_tenant_id_idp_id_assertion_id_pk" PRIMARY KEY("tenant_id","idp_id","assertion_id")
);
--> statement-breakpoint
CREATE TABLE "saml_identity_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"domains" text[] DEFAULT '{}'::text[] NOT NULL,
	"metadata_url" text,
	"metadata_xml" text,
	"entity_id" text NOT NULL,
	"sso_url" text NOT NULL,
	"certificates" text[] DEFAULT '{}'::text[] NOT NULL,
	"attribute_mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sign_requests" boolean DEFAULT false NOT NULL,
	"allow_linking" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saml_requests" (
	"tenant_id" uuid NOT NULL,
	"request_id" text NOT NULL,
	"idp_id" uuid NOT NULL,
	"redirect_to" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_requests_tenant_id_request_id_pk" PRIMARY KEY("tenant_id","request_id")
);
--> statement-breakpoint
CREATE TABLE "saml_service_provider_keys" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"private_key_sealed" text NOT NULL,
	"certificate" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "third_party_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"kind" text NOT NULL,
	"display_name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_sealed" text,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"allowed_redirect_urls" text[] DEFAULT '{}'::text[] NOT NULL,
	"allow_linking" boolean DEFAULT false NOT NULL,
	"store_tokens" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "third_party_states" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"provider_slug" text NOT NULL,
	"state_hash" text NOT NULL,
	"browser_hash" text NOT NULL,
	"secrets_sealed" text NOT NULL,
	"redirect_to" text NOT NULL,
	"link_user_id" uuid,
	"origin" text DEFAULT 'flow' NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identities" ADD CONSTRAINT "identities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identities" ADD CONSTRAINT "identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_assertions" ADD CONSTRAINT "saml_assertions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_identity_providers" ADD CONSTRAINT "saml_identity_providers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_requests" ADD CONSTRAINT "saml_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_requests" ADD CONSTRAINT "saml_requests_idp_id_saml_identity_providers_id_fk" FOREIGN KEY ("idp_id") REFERENCES "public"."saml_identity_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_service_provider_keys" ADD CONSTRAINT "saml_service_provider_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "third_party_providers" ADD CONSTRAINT "third_party_providers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "third_party_states" ADD CONSTRAINT "third_party_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "third_party_states" ADD CONSTRAINT "third_party_states_link_user_id_users_id_fk" FOREIGN KEY ("link_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identities_tenant_provider_subject" ON "identities" USING btree ("tenant_id","kind","provider_id","subject");--> statement-breakpoint
CREATE INDEX "identities_user" ON "identities" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "saml_assertions_expiry" ON "saml_assertions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "saml_identity_providers_tenant" ON "saml_identity_providers" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "saml_requests_expiry" ON "saml_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "third_party_providers_tenant_slug" ON "third_party_providers" USING btree ("tenant_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "third_party_states_hash" ON "third_party_states" USING btree ("state_hash");--> statement-breakpoint
CREATE INDEX "third_party_states_expiry" ON "third_party_states" USING btree ("expires_at");