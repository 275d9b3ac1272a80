import { createYouTubeQuota, youtubeQuotaFinding } from './modules/youtube/quota.js';
import type { NetworkSetupFinding } from '@herald/contract';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type Db, DatabaseUnreachableError } from './db/client.js';
import { deploymentFindings } from './modules/processes/media-placement.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { MediaStorageError } from './media/storage/storage-driver.js';
import { setOperator } from './modules/users/users.service.js';
import { runDoctor } from './platforms/preflight/doctor-command.js';
import { openDatabase, runServer } from './server.js';

const USAGE = `Usage: herald <command>

  start                 API, web app and job worker in one process (default)
  api                   only the HTTP API (needs DATABASE_URL)
  worker                only the job worker (needs DATABASE_URL)
  migrate               apply database migrations and exit
  doctor [--live]       check each network's setup (--live: ask their token endpoints)
  admin grant <email>   make a user a platform operator
  admin revoke <email>  take operator rights away`;

async function main(argv: string[]) {
  const [command = 'start', ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'start':
    case 'api':
    case 'worker':
      await runServer(config, command);
      return;
    case 'migrate': {
      const database = await openDatabase(config);
      try {
        await database.migrate();
        console.log(`Migrations applied (${database.kind}).`);
      } finally {
        await database.close();
      }
      return;
    }
    case 'doctor': {
      // The processes that share a database say where they keep media. The embedded database
      // serves one process, whose own start is the one to ask (it holds the data folder).
      const database = config.databaseUrl ? await openDatabase(config) : null;
      try {
        process.exitCode = await runDoctor(
          config,
          rest,
          (text) => console.log(text),
          fetch,
          database ? () => deploymentFindingsOrSay(database.db, config) : undefined,
        );
      } finally {
        await database?.close();
      }
      return;
    }
    case 'admin': {
      const [action, email] = rest;
      if ((action !== 'grant' && action !== 'revoke') || !email) throw new UsageError(USAGE);
      const database = await openDatabase(config);
      try {
        await database.migrate();
        const changed = await setOperator(database.db, email, action === 'grant');
        if (!changed) {
          throw new UsageError(
            `No user with the email ${email} yet: they must sign in once first (or add it to ADMIN_EMAILS).`,
          );
        }
        console.log(
          action === 'grant'
            ? `${email} is now a platform operator.`
            : `${email} is no longer a platform operator.`,
        );
      } finally {
        await database.close();
      }
      return;
    }
    default:
      throw new UsageError(`Unknown command '${command}'.\n\n${USAGE}`);
  }
}

class UsageError extends Error {}

/** The deployment's findings, or one saying why they could not be read (not migrated yet…). */
async function deploymentFindingsOrSay(db: Db, config: Config): Promise<NetworkSetupFinding[]> {
  try {
    const quota = createYouTubeQuota(db, config.youtubeQuota, () => new Date());
    return [
      ...(await deploymentFindings(db, config.processes.lapseSeconds)),
      await youtubeQuotaFinding(quota),
    ];
  } catch (err) {
    return [
      {
        level: 'warning',
        topic: 'storage',
        message: `Could not read which processes serve the database (${err instanceof Error ? err.message : String(err)}): run \`herald migrate\`, then doctor again.`,
      },
    ];
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  // Known failures get one clear line; anything else keeps its stack for the bug report.
  if (
    err instanceof ConfigError ||
    err instanceof DatabaseUnreachableError ||
    err instanceof DataDirLockedError ||
    err instanceof MediaStorageError ||
    err instanceof UsageError
  ) {
    console.error(`herald: ${err.message}`);
  } else if (err instanceof Error && /needs DATABASE_URL/.test(err.message)) {
    console.error(`herald: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
