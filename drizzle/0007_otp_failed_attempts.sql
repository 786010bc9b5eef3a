ALTER TABLE "otp_secrets" ADD COLUMN "failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "otp_secrets" ADD COLUMN "locked_at" timestamp with time zone;