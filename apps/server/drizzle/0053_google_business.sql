-- Custom SQL migration file, put your code below! --
-- Google Business Profile joins the networks (docs/networks.md#google-business-profile): a local
-- post's summary of at most 1,500 characters and one JPEG or PNG photo (up to 5 MB, at least
-- 250×250) that Google fetches by URL.
INSERT INTO "platforms" ("name", "is_active", "media_constraints") VALUES
  ('Google Business Profile', true, '{"text":{"maxLength":1500,"counting":"codepoints","textOnlyAllowed":true},"maxMediaPerPost":1,"image":{"allowedMimeTypes":["image/jpeg","image/png"],"maxFileSize":5242880,"minDimensions":{"width":250,"height":250},"maxCount":1}}')
ON CONFLICT DO NOTHING;
