-- Issue 62 (item 3): the provider's amr/acr stand for the portal's code only on accounts made by corporate sign-in (created_by_sso; false for every older account, the safe side); a challenge after corporate sign-in carries the identity to link once the code is right (sso_issuer/sso_subject).
ALTER TABLE "two_factor_challenges" ADD COLUMN "sso_issuer" text;--> statement-breakpoint
ALTER TABLE "two_factor_challenges" ADD COLUMN "sso_subject" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "created_by_sso" boolean DEFAULT false NOT NULL;