CREATE TABLE "uaf_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"aaid" text NOT NULL,
	"key_id" text NOT NULL,
	"public_key" text NOT NULL,
	"public_key_alg_and_encoding" integer NOT NULL,
	"signature_alg_and_encoding" integer NOT NULL,
	"sign_counter" bigint NOT NULL,
	"reg_counter" bigint NOT NULL,
	"authenticator_version" integer NOT NULL,
	"attestation_type" text NOT NULL,
	"attestation_certificates" text[] DEFAULT '{}'::text[] NOT NULL,
	"facet_id" text NOT NULL,
	"upv" text NOT NULL,
	"app_id" text NOT NULL,
	"name" text NOT NULL,
	"device_os" text,
	"os_version" text,
	"manufacturer" text,
	"model" text,
	"push_token" text,
	"secret_hash" text,
	"is_second_factor_only" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "uaf_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"operation" text NOT NULL,
	"status" text NOT NULL,
	"username" text NOT NULL,
	"message" text NOT NULL,
	"app_id" text NOT NULL,
	"challenge" text,
	"server_data" text,
	"policy" jsonb,
	"transaction_text" text,
	"transaction" jsonb,
	"device_ids" uuid[],
	"require_full_attestation" boolean DEFAULT false NOT NULL,
	"is_second_factor_only" boolean,
	"client_data" jsonb,
	"authenticator_selection" jsonb,
	"oob_token_hash" text,
	"device_id" uuid,
	"error_code" integer,
	"error_reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"valid_until" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "uaf_requests_operation" CHECK ("uaf_requests"."operation" in ('REG', 'AUTH', 'DEREG')),
	CONSTRAINT "uaf_requests_status" CHECK ("uaf_requests"."status" in ('PENDING', 'OK', 'FAILED', 'INVALIDATED'))
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "uaf" jsonb DEFAULT '{"appId":"","facetIds":[],"trustedRoots":[],"allowSurrogate":true,"acceptedAaids":[],"allowTestAuthenticators":false}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "uaf_registrations" ADD CONSTRAINT "uaf_registrations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uaf_registrations" ADD CONSTRAINT "uaf_registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uaf_requests" ADD CONSTRAINT "uaf_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uaf_requests" ADD CONSTRAINT "uaf_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "uaf_registrations_key" ON "uaf_registrations" USING btree ("tenant_id","aaid","key_id");--> statement-breakpoint
CREATE INDEX "uaf_registrations_user" ON "uaf_registrations" USING btree ("tenant_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "uaf_requests_tenant_created" ON "uaf_requests" USING btree ("tenant_id","created_at");--> statement-breakpoint
-- The demo tenant (seeded before this migration) accepts Sesame's software authenticator, as new seeds do.
UPDATE "tenants" SET "uaf" = jsonb_set("uaf", '{allowTestAuthenticators}', 'true'::jsonb) WHERE "id"::text = (SELECT "value"->>'tenantId' FROM "sesame_meta" WHERE "key" = 'demo_tenant');
