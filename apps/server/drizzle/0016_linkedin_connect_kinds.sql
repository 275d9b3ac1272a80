-- LinkedIn accounts now connect as one of two kinds, each through its own LinkedIn app
-- (docs/decisions/0011-linkedin-connect-kinds.md). Accounts connected before name their kind by
-- their URN: an organization URN is a LinkedIn Page, anything else the member's own profile.
-- Their shared grant key is kept, so disconnecting one never revokes the token another uses.
UPDATE "integrations" SET "extra" = "extra" || jsonb_build_object(
  'kind',
  CASE WHEN "platform_account_id" LIKE 'urn:li:organization:%' THEN 'organization' ELSE 'person' END
)
WHERE "platform_id" IN (SELECT "id" FROM "platforms" WHERE lower("name") = 'linkedin')
  AND NOT ("extra" ? 'kind');
