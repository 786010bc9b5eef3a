CREATE TABLE "analytics_active_users" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "analytics_active_users_tenant_id_day_user_id_pk" PRIMARY KEY("tenant_id","day","user_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_tenant_id_day_metric_shard_pk" PRIMARY KEY("tenant_id","day","metric","shard")
);
--> statement-breakpoint
CREATE TABLE "operator_enrolments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" uuid,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" uuid NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "operator_tenants" (
	"operator_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	CONSTRAINT "operator_tenants_operator_id_tenant_id_pk" PRIMARY KEY("operator_id","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	CONSTRAINT "operators_role" CHECK ("operators"."role" in ('owner', 'admin', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "system" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_active_users" ADD CONSTRAINT "analytics_active_users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily" ADD CONSTRAINT "analytics_daily_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_enrolments" ADD CONSTRAINT "operator_enrolments_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_tenants" ADD CONSTRAINT "operator_tenants_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_tenants" ADD CONSTRAINT "operator_tenants_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_enrolments_token" ON "operator_enrolments" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "operator_sessions_operator" ON "operator_sessions" USING btree ("operator_id");--> statement-breakpoint
CREATE INDEX "operator_tenants_tenant" ON "operator_tenants" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operators_email" ON "operators" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_system" ON "tenants" USING btree ("system") WHERE "tenants"."system";