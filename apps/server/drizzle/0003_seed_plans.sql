-- A fresh install starts with a ladder of plans (operators edit them in the back-office).
INSERT INTO "plans" ("name", "description", "price", "billing_cycle", "provider_metadata", "features", "status", "popular", "trial_eligible", "sort_order") VALUES
  ('Starter', 'For a solo creator getting organized on a few networks.', 9.00, 'MONTHLY', '{"planType":"starter"}', '{"invites":2,"postsPerDay":10,"organizations":1,"connectedPlatforms":3,"prioritySupport":false}', 'ACTIVE', false, true, 1),
  ('Basic', 'For small teams publishing every day across their networks.', 29.00, 'MONTHLY', '{"planType":"basic"}', '{"invites":10,"postsPerDay":50,"organizations":2,"connectedPlatforms":10,"prioritySupport":false}', 'ACTIVE', true, true, 2),
  ('Pro', 'For agencies running many brands with a larger team.', 79.00, 'MONTHLY', '{"planType":"pro"}', '{"invites":50,"postsPerDay":250,"organizations":10,"connectedPlatforms":40,"prioritySupport":true}', 'ACTIVE', false, true, 3);
