ALTER TABLE "openid_models" ADD COLUMN "session_id" uuid;--> statement-breakpoint
CREATE INDEX "openid_models_session" ON "openid_models" USING btree ("tenant_id","session_id") WHERE "openid_models"."session_id" is not null;--> statement-breakpoint
-- Codes and the access tokens redeemed from them, issued before this migration, name their Sesame session in
-- the payload (`sid`): bind them too. Offline access (refresh tokens, the access tokens of a refresh) is not bound.
UPDATE "openid_models" SET "session_id" = ("payload"->>'sid')::uuid
WHERE ("kind" = 'AuthorizationCode'
    OR ("kind" = 'AccessToken' AND NOT coalesce("payload"->>'gty', '') ~ '(^| )refresh_token( |$)'))
  AND "payload"->>'sid' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
