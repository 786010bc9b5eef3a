CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"rp_id" text NOT NULL,
	"rp_name" text NOT NULL,
	"origins" text[] DEFAULT '{}'::text[] NOT NULL,
	"challenge_ttl_seconds" integer DEFAULT 300 NOT NULL,
	"request_ttl_seconds" integer DEFAULT 120 NOT NULL,
	"session_lifetime_seconds" integer DEFAULT 3600 NOT NULL,
	"passcode_ttl_seconds" integer DEFAULT 300 NOT NULL,
	"token_lifetime_seconds" integer DEFAULT 300 NOT NULL,
	"signing_algorithm" text DEFAULT 'RS256' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenants_challenge_ttl" CHECK ("tenants"."challenge_ttl_seconds" between 10 and 3600),
	CONSTRAINT "tenants_request_ttl" CHECK ("tenants"."request_ttl_seconds" between 10 and 600),
	CONSTRAINT "tenants_session_lifetime" CHECK ("tenants"."session_lifetime_seconds" between 60 and 31536000),
	CONSTRAINT "tenants_passcode_ttl" CHECK ("tenants"."passcode_ttl_seconds" between 60 and 600),
	CONSTRAINT "tenants_token_lifetime" CHECK ("tenants"."token_lifetime_seconds" between 10 and 86400),
	CONSTRAINT "tenants_signing_algorithm" CHECK ("tenants"."signing_algorithm" in ('RS256', 'ES256', 'EdDSA'))
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"algorithm" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_key_encrypted" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "audit_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "audit_logs_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" uuid NOT NULL,
	"type" text NOT NULL,
	"actor" text,
	"ip" text,
	"user_agent" text,
	"request_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sesame_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_tenant" ON "api_keys" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_active" ON "signing_keys" USING btree ("tenant_id") WHERE "signing_keys"."active";--> statement-breakpoint
CREATE INDEX "signing_keys_tenant" ON "signing_keys" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "audit_logs_tenant_seq" ON "audit_logs" USING btree ("tenant_id","seq" DESC NULLS LAST);