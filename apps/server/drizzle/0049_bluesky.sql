-- Bluesky joins the networks (docs/networks.md#bluesky): 300 graphemes of text, up to four images
-- of 2,000,000 bytes or one MP4 video. Accounts connect with a handle and an app password.
INSERT INTO "platforms" ("name", "is_active", "media_constraints") VALUES
  ('Bluesky', true, '{"text":{"maxLength":300,"counting":"graphemes","textOnlyAllowed":true},"maxMediaPerPost":4,"image":{"allowedMimeTypes":["image/jpeg","image/png","image/webp","image/gif"],"maxFileSize":2000000,"maxCount":4},"video":{"allowedMimeTypes":["video/mp4"],"maxFileSize":100000000,"maxCount":1}}')
ON CONFLICT DO NOTHING;
