ALTER TABLE "one_time_tokens" ADD COLUMN "code_challenge" text;--> statement-breakpoint
ALTER TABLE "third_party_states" ADD COLUMN "code_challenge" text;