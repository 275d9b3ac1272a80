-- Custom SQL migration file, put your code below! --
-- Pinterest joins the networks (docs/networks.md#pinterest): a pin is one image, a carousel of
-- 2 to 5 images, or one video with at most one image as its cover; the post's text is the pin's
-- description.
INSERT INTO "platforms" ("name", "is_active", "media_constraints") VALUES
  ('Pinterest', true, '{"text":{"maxLength":800,"counting":"codepoints","textOnlyAllowed":false},"maxMediaPerPost":5,"image":{"allowedMimeTypes":["image/jpeg","image/png"],"maxFileSize":20971520,"maxCount":5},"video":{"allowedMimeTypes":["video/mp4","video/quicktime","video/x-m4v"],"maxFileSize":2147483648,"minDuration":4,"maxDuration":900,"maxCount":1}}')
ON CONFLICT DO NOTHING;
