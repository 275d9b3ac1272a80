import { accountLabel } from '../posts/post-accounts.js';
import { reachesAccount } from '../team/account-access.js';
import {
  constraintsForAccount,
  describeTimeZone,
  followUpProblems,
  formatInstantIn,
  isTextRule,
  contentForAccount,
  supportsFirstComment,
  FIRST_COMMENT_NETWORKS,
  IMPORT_BATCH_ROWS,
  IMPORT_COLUMNS,
  IMPORT_MAX_ALT_TEXT,
  IMPORT_MAX_MEDIA_PER_ROW,
  IMPORT_MAX_ROWS,
  parseWallTime,
  instantOfWallTime,
  validatePostTargets,
  type ApplicableTimeZone,
  type FollowUpsInput,
  type ImportMode,
  type ImportRow,
  type PostContent,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { lockOrganization } from '../organizations/organization-lock.js';
import { AppError } from '../../lib/app-error.js';
import { CsvSyntaxError, parseCsv } from '../../lib/csv-parse.js';
import type { IngestedMedia } from '../../media/media-store.js';
import { FetchRefused, precheckUrl, safeFetch } from '../../media/safe-fetch.js';
import { mustSubmit, recordSubmission } from '../approvals/approval-rule.js';
import { requireCapacity, requireEntitlement } from '../billing/entitlements.js';
import {
  constraintsOf,
  contentErrors,
  factsOf,
  labelTargets,
  splitContent,
  textErrors,
  type TargetRule,
} from '../posts/post-rules.js';
import { storeFollowUps } from '../posts/follow-up-fields.js';
import * as postsRepo from '../posts/posts.lookups.js';
import { startOfUtcDay, type Caller, type PostsDeps } from '../posts/posts.service.js';
import { keysOf } from '../posts/posts.upload.js';
import * as repo from './post-import.repository.js';

export interface ImportDeps extends PostsDeps {
  mediaImport: { maxBytes: number; allowPrivate: readonly string[] };
}

/** One analysed row: what the dry run shows, and what the import needs to write it. */
interface AnalysedRow extends ImportRow {
  content: PostContent;
  title: string | null;
  mediaUrls: string[];
  altTexts: string[];
  firstComment: string | null;
  /** The row's first comment, per account whose network takes one. */
  followUps: Map<string, FollowUpsInput>;
  chosen: postsRepo.ConnectedAccount[];
  targets: TargetRule[];
}

const SIMPLE_COLUMNS = [
  'text',
  'accounts',
  'time',
  'media_urls',
  'first_comment',
  'alt_text',
  'title',
];
const COLUMN_LIST = IMPORT_COLUMNS.map((c) => c.name).join(', ');
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The header's columns, or a 400 naming the unknown, repeated or missing ones. */
function readHeader(cells: string[], networks: Map<string, string>) {
  const columns: Array<{ kind: 'simple'; name: string } | { kind: 'network'; platformId: string }> =
    [];
  const seen = new Set<string>();
  cells.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (seen.has(name)) {
      throw new AppError(
        'VALIDATION_FAILED',
        `The column "${raw.trim()}" appears twice in the header (column ${index + 1}).`,
      );
    }
    seen.add(name);
    if (SIMPLE_COLUMNS.includes(name)) columns.push({ kind: 'simple', name });
    else if (name.startsWith('text:') && networks.has(name.slice(5).trim())) {
      columns.push({ kind: 'network', platformId: networks.get(name.slice(5).trim())! });
    } else {
      throw new AppError(
        'VALIDATION_FAILED',
        name.startsWith('text:')
          ? `The column "${raw.trim()}" (column ${index + 1}) names a network Herald does not know. Networks: ${[...networks.keys()].join(', ')}.`
          : `The column "${raw.trim() || '(empty)'}" (column ${index + 1}) is not one Herald imports. The columns are: ${COLUMN_LIST}.`,
      );
    }
  });
  if (!seen.has('accounts')) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The header has no "accounts" column. The columns are: ${COLUMN_LIST}.`,
    );
  }
  if (!seen.has('text') && !columns.some((c) => c.kind === 'network')) {
    throw new AppError(
      'VALIDATION_FAILED',
      'The header has no "text" column (nor a text:<network> column).',
    );
  }
  return columns;
}

/** The accounts a cell names, or the message for what it names wrongly. */
function matchAccounts(
  cell: string,
  connected: postsRepo.ConnectedAccount[],
  reaches: (account: postsRepo.ConnectedAccount) => boolean,
) {
  const tokens = cell
    .split(/[;,]/)
    .map((t) => t.trim())
    .filter(Boolean);
  const chosen: postsRepo.ConnectedAccount[] = [];
  const messages: string[] = [];
  if (tokens.length === 0) messages.push('accounts: name at least one account to post to.');
  for (const token of tokens) {
    const lower = token.toLowerCase();
    const [network, handle] = lower.includes(':') ? lower.split(/:(.*)/s) : [null, lower];
    const wanted = (handle ?? '').replace(/^@/, '');
    let found = connected.filter((a) => a.integrationId === token);
    if (found.length === 0) {
      found = connected.filter(
        (a) =>
          (network === null || a.platformName.toLowerCase() === network) &&
          (a.username?.toLowerCase() === wanted || a.name?.toLowerCase() === wanted),
      );
    }
    if (found.length === 0 && network === null) {
      // A network alone means the importer's own account on it, never one outside their reach.
      const ofNetwork = connected.filter(
        (a) => a.platformName.toLowerCase() === wanted && reaches(a),
      );
      if (ofNetwork.length > 1) {
        messages.push(
          `accounts: "${token}" has ${ofNetwork.length} connected accounts; name one, like ${ofNetwork[0]!.platformName.toLowerCase()}:@${ofNetwork[0]!.username ?? 'handle'}.`,
        );
        continue;
      }
      found = ofNetwork;
    }
    if (found.length !== 1) {
      messages.push(
        found.length === 0
          ? `accounts: no connected account matches "${token}".`
          : `accounts: "${token}" matches ${found.length} accounts; add the network, like x:@handle.`,
      );
      continue;
    }
    if (!reaches(found[0]!)) {
      const a = found[0]!;
      messages.push(
        `accounts: you don't have access to ${accountLabel({ username: a.username, name: a.name, network: a.platformName })}. Ask an Admin.`,
      );
      continue;
    }
    if (!chosen.includes(found[0]!)) chosen.push(found[0]!);
  }
  if (chosen.length > 10) messages.push('accounts: a post can go to at most 10 accounts.');
  return { chosen, messages };
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A time cell: ISO with an offset, or a wall time in the zone that applies to the importer. */
function readTime(cell: string, zone: ApplicableTimeZone): Date | string {
  const value = cell.trim();
  if (ISO_WITH_OFFSET.test(value)) {
    const at = new Date(value);
    if (!Number.isNaN(at.getTime())) return at;
  }
  const wall = parseWallTime(value.replace(' ', 'T'));
  if (wall && /\d{2}:\d{2}/.test(value)) return new Date(instantOfWallTime(wall, zone.zone));
  return `time: "${value}" is not a date and time. Write 2030-01-31T09:00:00Z, or 2030-01-31 09:00 in ${describeTimeZone(zone)}.`;
}

/** What every row of one file is checked against: read once, before the first row. */
interface ImportContext {
  connected: postsRepo.ConnectedAccount[];
  /** The accounts the importer is limited to; null: every account. */
  accountIds: string[] | null;
  /** The zone that applies to the importer: wall times are read in it, times written in it. */
  zone: ApplicableTimeZone;
  now: Date;
  mode: ImportMode;
  allowPrivate: readonly string[];
  columns: ReturnType<typeof readHeader>;
}

/**
 * Opens a CSV for a streamed import: one pass over the file that keeps nothing but the header
 * and the row count, so the shape of the whole file is known before any row is written. Refuses
 * the whole file (400, nothing changed) when its shape is wrong: an unclosed quote, unknown or
 * missing columns, no rows, or more than IMPORT_MAX_ROWS rows.
 */
async function openCsv(
  deps: Pick<ImportDeps, 'db' | 'now' | 'mediaImport'>,
  caller: Caller,
  csv: string,
  mode: ImportMode,
  zone: ApplicableTimeZone,
): Promise<ImportContext> {
  const [connected, networkRows] = await Promise.all([
    postsRepo.connectedAccounts(deps.db, caller.organizationId),
    repo.allPlatformNames(deps.db),
  ]);
  const networks = new Map(networkRows.map((p) => [p.name.toLowerCase(), p.id]));
  let header: string[] | null = null;
  let total = 0;
  try {
    for (const record of parseCsv(csv)) {
      if (header === null) header = record.cells;
      else total++;
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new AppError('VALIDATION_FAILED', error.message);
    throw error;
  }
  if (total > IMPORT_MAX_ROWS) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The file has ${plural(total, 'post row')}; import at most ${plural(IMPORT_MAX_ROWS, 'row')} at a time. Split it into smaller files. Nothing was imported.`,
    );
  }
  if (!header) throw new AppError('VALIDATION_FAILED', 'The CSV file is empty.');
  const columns = readHeader(header, networks);
  if (total === 0) {
    throw new AppError('VALIDATION_FAILED', 'The file has a header but no post rows.');
  }
  return {
    connected,
    accountIds: caller.accountIds ?? null,
    zone,
    now: deps.now(),
    mode,
    allowPrivate: deps.mediaImport.allowPrivate,
    columns,
  };
}

/**
 * The file's rows, checked one at a time with the composer's rules (accounts, texts per network,
 * time, media URLs, first comment, alt text) as the caller reads them: nothing of a row is kept
 * once the caller has moved on, so memory does not grow with the file (docs/queue-and-import.md).
 */
function* analysedRows(ctx: ImportContext, csv: string): Generator<AnalysedRow> {
  let first = true;
  for (const record of parseCsv(csv)) {
    if (first) {
      first = false;
      continue;
    }
    yield analyseRow(ctx, record);
  }
}

/** One row checked with the composer's rules. */
function analyseRow(
  ctx: ImportContext,
  { row, cells }: { row: number; cells: string[] },
): AnalysedRow {
  const { columns, connected, zone, now, mode } = ctx;
  const messages: string[] = [];
  if (cells.length !== columns.length) {
    messages.push(
      `The row has ${plural(cells.length, 'cell')} but the header has ${plural(columns.length, 'column')} (check for an unquoted comma).`,
    );
  }
  const get = (name: string) => {
    const index = columns.findIndex((c) => c.kind === 'simple' && c.name === name);
    return index >= 0 ? (cells[index] ?? '') : '';
  };
  const { chosen, messages: accountMessages } = matchAccounts(get('accounts'), connected, (a) =>
    reachesAccount(ctx, a.integrationId),
  );
  messages.push(...accountMessages);

  // Texts: the shared one, and a network's own where its column has one.
  const shared = get('text');
  const own: Record<string, string> = {};
  columns.forEach((c, index) => {
    const value = cells[index] ?? '';
    if (c.kind === 'network' && value.trim() && chosen.some((a) => a.platformId === c.platformId)) {
      own[c.platformId] = value;
    }
  });
  const content: PostContent = Object.keys(own).length > 0 ? { default: shared, ...own } : shared;

  let scheduledAt: Date | null = null;
  const timeCell = get('time').trim();
  if (timeCell) {
    const at = readTime(timeCell, zone);
    if (typeof at === 'string') messages.push(at);
    else if (mode === 'schedule' && at.getTime() <= now.getTime()) {
      messages.push(
        `time: ${formatInstantIn(at.getTime(), zone.zone)} has already passed. Pick a time in the future.`,
      );
    } else scheduledAt = at;
  } else if (mode === 'schedule') {
    messages.push('time: a time is needed to schedule this post (or import the file as drafts).');
  }

  const mediaUrls = get('media_urls')
    .split(/[\s;]+/)
    .filter(Boolean);
  if (mediaUrls.length > IMPORT_MAX_MEDIA_PER_ROW) {
    messages.push(
      `media_urls: at most ${IMPORT_MAX_MEDIA_PER_ROW} files per post (${mediaUrls.length} given).`,
    );
  }
  for (const url of mediaUrls) {
    try {
      precheckUrl(url, ctx.allowPrivate);
    } catch (error) {
      if (!(error instanceof FetchRefused)) throw error;
      messages.push(`media_urls: ${url} ${error.message}`);
    }
  }

  const targets: TargetRule[] = labelTargets(chosen).map((a) => ({
    integrationId: a.integrationId,
    platformId: a.platformId,
    platformName: a.label,
    constraints: constraintsForAccount(constraintsOf(a.mediaConstraints), a.textLimit),
  }));
  for (const e of [
    ...contentErrors(content, targets, () => mediaUrls),
    ...textErrors(content, targets),
  ]) {
    messages.push(
      `${typeof content === 'string' ? 'text' : 'text for ' + e.platformName}: ${e.message}`,
    );
  }

  // One first comment for the row: stored on each of its accounts whose network takes one
  // (the others are published without it); refused when none of them takes one.
  const firstComment = get('first_comment').trim() || null;
  const followUps = new Map<string, FollowUpsInput>();
  if (firstComment) {
    chosen.forEach((account, i) => {
      if (!supportsFirstComment(account.platformName)) return;
      const input = { firstComment };
      const problems = followUpProblems(
        {
          networkName: account.platformName,
          label: targets[i]!.platformName,
          constraints: targets[i]!.constraints,
        },
        input,
      );
      messages.push(...problems.map((p) => `first_comment: ${p}`));
      followUps.set(account.integrationId, input);
    });
    if (followUps.size === 0 && targets.length > 0) {
      messages.push(
        `first_comment: none of the row's accounts takes a first comment (only ${FIRST_COMMENT_NETWORKS.join(', ')} do).`,
      );
    }
  }
  const altCell = get('alt_text');
  const altTexts = altCell.trim() ? altCell.split('|').map((a) => a.trim()) : [];
  if (altTexts.length > mediaUrls.length) {
    messages.push(
      `alt_text: ${plural(altTexts.length, 'alt text')} for ${plural(mediaUrls.length, 'media URL')}; give at most one per file, separated by "|".`,
    );
  }
  altTexts.forEach((alt, i) => {
    if (alt.length > IMPORT_MAX_ALT_TEXT) {
      messages.push(
        `alt_text: the alt text of file ${i + 1} is longer than ${IMPORT_MAX_ALT_TEXT.toLocaleString('en-US')} characters.`,
      );
    }
  });
  const title = get('title').trim() || null;
  if (title && title.length > 200) messages.push('title: at most 200 characters.');

  return {
    row,
    ok: messages.length === 0,
    messages,
    text:
      typeof content === 'string' ? content : (content.default ?? Object.values(content)[0] ?? ''),
    accounts: chosen.map(
      (a) => `${a.username ? `@${a.username}` : (a.name ?? 'Account')} (${a.platformName})`,
    ),
    scheduledAt: mode === 'schedule' && scheduledAt ? scheduledAt.toISOString() : null,
    mediaCount: mediaUrls.length,
    content,
    title,
    mediaUrls,
    altTexts,
    firstComment,
    followUps,
    chosen,
    targets,
  };
}

/** The dry run as the API answers it: each row's result, nothing more of it kept. */
export async function dryRun(
  deps: ImportDeps,
  caller: Caller,
  csv: string,
  mode: ImportMode,
  zone: ApplicableTimeZone,
) {
  const ctx = await openCsv(deps, caller, csv, mode, zone);
  const rows = [];
  for (const { row, ok, messages, text, accounts, scheduledAt, mediaCount } of analysedRows(
    ctx,
    csv,
  )) {
    rows.push({
      row,
      ok,
      messages,
      text: text.length > 280 ? `${text.slice(0, 279)}…` : text,
      accounts,
      scheduledAt,
      mediaCount,
    });
  }
  const valid = rows.filter((r) => r.ok).length;
  return { rows, valid, invalid: rows.length - valid };
}

/** Fetches a row's media (outside any transaction); the files, or why the row is refused. */
async function fetchRowMedia(
  deps: ImportDeps,
  organizationId: string,
  row: AnalysedRow,
): Promise<{ files: IngestedMedia[] } | { message: string }> {
  const files: IngestedMedia[] = [];
  for (const url of row.mediaUrls) {
    try {
      const fetched = await safeFetch(url, {
        maxBytes: deps.mediaImport.maxBytes,
        allowPrivate: deps.mediaImport.allowPrivate,
      });
      files.push(
        await deps.media.ingest(fetched.body, { organizationId, fileName: fetched.fileName }),
      );
    } catch (error) {
      await deps.media.remove(keysOf(files));
      if (error instanceof FetchRefused) return { message: `media_urls: ${url} ${error.message}` };
      if (error instanceof AppError && error.statusCode < 500) {
        return { message: `media_urls: ${url}: ${error.message}` };
      }
      throw error;
    }
  }
  const errors = validatePostTargets(
    row.targets.map((t) => ({
      ...t,
      text: contentForAccount(row.content, t),
      media: files.map(factsOf),
    })),
  );
  if (errors.length > 0) {
    await deps.media.remove(keysOf(files));
    return {
      message: errors
        .map(
          (e) =>
            `${e.field === 'media' && !isTextRule(e.rule) ? 'media_urls' : 'text'}: ${e.message}`,
        )
        .join(' '),
    };
  }
  return { files };
}

/** A few at a time: media servers and our disk both prefer it to a thousand at once. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>) {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await fn(items[index]!);
      }
    }),
  );
  return out;
}

/**
 * Imports the rows the dry run accepts, streamed: the rows are read and checked one at a time,
 * and each batch of IMPORT_BATCH_ROWS valid rows has its media fetched and stored (no network
 * call inside a transaction), then is written in one transaction (the plan's daily allowance and
 * the approval rule checked under the organization's lock) before the next rows are read. Only
 * one batch is held at a time, so memory stays flat in the file's length. A row whose media is
 * refused is reported and left out; a batch the plan refuses stops the import there (the earlier
 * batches stay, the refusal names the rows not imported).
 */
export async function importCsv(
  deps: ImportDeps,
  caller: Caller,
  csv: string,
  mode: ImportMode,
  zone: ApplicableTimeZone,
) {
  await requireEntitlement(deps.db, caller.organizationId, 'post');
  const ctx = await openCsv(deps, caller, csv, mode, zone);
  const refused: Array<{ row: number; message: string }> = [];
  const postIds: string[] = [];
  let stopped: AppError | null = null as AppError | null;
  let batch: AnalysedRow[] = [];

  type Fetched = Array<{ files: IngestedMedia[] } | { message: string }>;
  const notImported = (row: AnalysedRow, error: AppError) =>
    refused.push({ row: row.row, message: `Row ${row.row}: not imported. ${error.message}` });

  const write = async (rows: AnalysedRow[], fetched: Fetched) => {
    const ready: Array<{ row: AnalysedRow; files: IngestedMedia[] }> = [];
    rows.forEach((row, i) => {
      const result = fetched[i]!;
      if ('message' in result) {
        refused.push({ row: row.row, message: `Row ${row.row}: ${result.message}` });
      } else ready.push({ row, files: result.files });
    });
    // An earlier batch was refused while this one's media was being fetched: it goes no further.
    if (stopped) {
      await deps.media.remove(ready.flatMap((r) => keysOf(r.files)));
      for (const { row } of ready) notImported(row, stopped);
      return;
    }
    try {
      postIds.push(
        ...(await deps.db.transaction(async (tx) => writeBatch(deps, tx, caller, ready, mode))),
      );
    } catch (error) {
      await deps.media.remove(ready.flatMap((r) => keysOf(r.files)));
      if (!(error instanceof AppError)) throw error;
      stopped = error;
      for (const { row } of ready) notImported(row, error);
    }
  };

  // A batch's media is fetched while the batch before it is written (never inside its
  // transaction); the rows after it are read once that write is done: two batches at most.
  let writing: Promise<void> = Promise.resolve();
  const flush = async (rows: AnalysedRow[]) => {
    const fetching = mapLimited(rows, 4, (row) =>
      row.mediaUrls.length > 0
        ? fetchRowMedia(deps, caller.organizationId, row)
        : Promise.resolve({ files: [] as IngestedMedia[] }),
    );
    fetching.catch(() => {});
    try {
      await writing;
    } catch (error) {
      // The batch before failed to be written (its own files are removed in `write`): this
      // batch's media, stored meanwhile, goes too before the failure is passed on.
      const fetched = await fetching.catch(() => [] as Fetched);
      await deps.media.remove(fetched.flatMap((r) => ('files' in r ? keysOf(r.files) : [])));
      throw error;
    }
    writing = fetching.then((fetched) => write(rows, fetched));
    // Awaited at the next flush or at the end; this only keeps a failure meanwhile from
    // counting as unhandled.
    writing.catch(() => {});
  };

  for (const row of analysedRows(ctx, csv)) {
    if (!row.ok) {
      refused.push({ row: row.row, message: `Row ${row.row}: ${row.messages.join(' ')}` });
    } else if (stopped) {
      notImported(row, stopped);
    } else {
      batch.push(row);
      if (batch.length === IMPORT_BATCH_ROWS) {
        const full = batch;
        batch = [];
        await flush(full);
      }
    }
  }
  if (stopped) for (const row of batch) notImported(row, stopped);
  else if (batch.length > 0) await flush(batch);
  await writing;
  refused.sort((a, b) => a.row - b.row);
  return { imported: postIds.length, postIds, refused };
}

async function writeBatch(
  deps: ImportDeps,
  tx: Db,
  caller: Caller,
  ready: Array<{ row: AnalysedRow; files: IngestedMedia[] }>,
  mode: ImportMode,
) {
  await lockOrganization(tx, caller.organizationId);
  const plan = await requireEntitlement(tx, caller.organizationId, 'post');
  const today = await postsRepo.countPostsCreatedSince(
    tx,
    caller.organizationId,
    startOfUtcDay(deps.now()),
  );
  // The whole batch must fit in the day's allowance.
  if (ready.length > 0) requireCapacity(plan, 'postsPerDay', today + ready.length - 1);
  const submits = mode === 'schedule' && (await mustSubmit(tx, caller));
  const ids: string[] = [];
  for (const { row, files } of ready) {
    const scheduled = mode === 'schedule' && row.scheduledAt !== null;
    const post = await postsRepo.insertPost(
      tx,
      {
        organizationId: caller.organizationId,
        createdByUserId: caller.userId,
        title: row.title,
        ...splitContent(row.content),
        status: scheduled ? (submits ? 'pending_approval' : 'scheduled') : 'draft',
        scheduledAt: scheduled ? new Date(row.scheduledAt!) : null,
      },
      row.chosen.map((a) => ({
        platformId: a.platformId,
        integrationId: a.integrationId,
        accountName: a.name,
        accountUsername: a.username,
        accountExternalId: a.platformAccountId,
        settings: null,
      })),
      // alt_text's n-th "|"-separated text belongs to the n-th media URL; an empty one is none.
      files.map((file, position) => ({
        ...file,
        position,
        platformIds: null,
        altText: row.altTexts[position] || null,
      })),
      { uploadedBy: caller.userId },
    );
    await storeFollowUps(tx, caller.organizationId, post.id, row.followUps, () => false);
    if (post.status === 'scheduled') await deps.lifecycle.scheduled(tx, post);
    if (submits) await recordSubmission(tx, caller, post);
    ids.push(post.id);
  }
  return ids;
}
