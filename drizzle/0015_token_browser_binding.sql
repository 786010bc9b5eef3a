-- Tokens minted without a binding (they live 60 s) could only be refused from now on.
DELETE FROM "one_time_tokens" WHERE "code_challenge" IS NULL;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD COLUMN "browser_hash" text;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_bound" CHECK ("one_time_tokens"."browser_hash" IS NOT NULL OR "one_time_tokens"."code_challenge" IS NOT NULL);