ALTER TABLE "tenants" ADD COLUMN "audit_log" jsonb DEFAULT '{"retentionDays":90}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_logs_tenant_created" ON "audit_logs" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_logs_tenant_type" ON "audit_logs" USING btree ("tenant_id","type" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "audit_logs_tenant_actor" ON "audit_logs" USING btree ("tenant_id","actor");