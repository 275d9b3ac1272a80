import { asc, eq, sql } from 'drizzle-orm';
import { perDatabase, type Db } from '../../db/client.js';
import { integrations, platforms, users } from '../../db/schema.js';

/*
 * The names a listed post shows beside its own row, read apart from the posts' statement and
 * cached by creator-names.ts and target-names.ts.
 */

const creatorsByIds = perDatabase((db: Db) =>
  db
    .select({ id: users.id, displayName: users.displayName })
    .from(users)
    .where(sql`${users.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('creator_names'),
);

const targetNames = perDatabase((db: Db) => ({
  platforms: db
    .select({ id: platforms.id, name: platforms.name })
    .from(platforms)
    .orderBy(asc(platforms.name))
    .prepare('target_names_platforms'),
  accounts: db
    .select({
      id: integrations.id,
      liveName: integrations.name,
      liveUsername: integrations.username,
      pictureUrl: integrations.pictureUrl,
      accountStatus: integrations.status,
    })
    .from(integrations)
    .where(eq(integrations.organizationId, sql.placeholder('organizationId')))
    .prepare('target_names_accounts'),
}));

/** The people among `ids` (a deleted one is absent): their id and display name. */
export function creatorRows(db: Db, ids: string[]) {
  return creatorsByIds(db).execute({ ids });
}

/** Every network's id and name, sorted by name (the database's collation). */
export function networkNameRows(db: Db) {
  return targetNames(db).platforms.execute();
}

/** The organization's connected accounts: id, current name, username, picture and status. */
export function accountNameRows(db: Db, organizationId: string) {
  return targetNames(db).accounts.execute({ organizationId });
}
