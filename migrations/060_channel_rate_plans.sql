-- Rate plans priced as hotels price (API.md 11.3), as the last OTA_HotelRatePlanNotif:RatePlans
-- message left them: one row per hotel and RatePlanCode, the plan in the shape of
-- src/rate-plans/rate-plan.model.ts (`PlanPricing`, amounts in minor units). Catalogue loads never
-- touch it: a plan with the id of a catalogue rate plan prices it in its stead. `version` moves with
-- every change, so each process's copy (plan-store.ts) knows when it holds an older one.
CREATE TABLE channel_rate_plans (
  hotel_id       text NOT NULL REFERENCES hotels (id),
  rate_plan_code text NOT NULL CHECK (length(rate_plan_code) BETWEEN 1 AND 64),
  pricing        jsonb NOT NULL,
  version        bigint NOT NULL DEFAULT 1,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hotel_id, rate_plan_code)
);
