import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicableTimeZone } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { posts } from '../../db/schema.js';
import { createMediaStore, type MediaStore } from '../../media/media-store.js';
import { createTestApp, send, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { png } from '../../test/media-fixtures.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { formulaCells, readCsvAs } from '../../test/spreadsheet.js';
import { importCsv } from './import.service.js';

/**
 * Bulk import and export. Media comes from a server on loopback, allowed by the
 * test-only MEDIA_IMPORT_ALLOW_PRIVATE for its port alone; a second loopback server is not
 * allowed, as production allows no private address at all.
 */
let t: TestApp;
let mediaDir: string;
let owner: Actor;
let support: Actor;
let outsider: Actor;
let orgId: string;
let outsiderOrgId: string;
let xId: string;
let media: Server;
let forbidden: Server;
let mediaPort: number;
let forbiddenPort: number;
let bytesSentToHuge = 0;

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const base = () => `/api/organizations/${orgId}`;
const dryRun = (csv: string, mode = 'schedule', actor = owner, org = orgId) =>
  actor.call('POST', `/api/organizations/${org}/posts/import/dry-run`, { csv, mode });
const runImport = (csv: string, mode = 'schedule', actor = owner, org = orgId) =>
  actor.call('POST', `/api/organizations/${org}/posts/import`, { csv, mode });
const postCount = async () =>
  (await owner.call('GET', `${base()}/posts?pageSize=1`)).body.meta.totalCount as number;

async function listen(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  const image = await png(64, 48);
  media = createServer((req, res) => {
    if (req.url === '/ok.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length });
      res.end(image);
    } else if (req.url === '/huge.mp4') {
      // Declares 5 GB: refused on the header, before any of it is read.
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(5 * 1024 ** 3) });
      res.write(Buffer.alloc(64 * 1024));
    } else if (req.url === '/endless.png') {
      // No length: the cap is counted while streaming and the download aborted.
      res.writeHead(200, { 'content-type': 'image/png' });
      // A real PNG's first bytes (the sniffer accepts it), then more than the cap.
      res.write(image);
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) bytesSentToHuge += chunk.length;
        if (!res.destroyed && bytesSentToHuge < 50 * 1024 ** 2) res.once('drain', pump);
        else res.end();
      };
      pump();
    } else if (req.url === '/redirect.png') {
      res.writeHead(302, { location: `http://127.0.0.1:${forbiddenPort}/ok.png` });
      res.end();
    } else if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>not media</p>');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  forbidden = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length });
    res.end(image);
  });
  mediaPort = await listen(media);
  forbiddenPort = await listen(forbidden);
  mediaDir = await mkdtemp(join(tmpdir(), 'herald-import-'));
  t = await createTestApp({
    MEDIA_DIR: join(mediaDir, 'store'),
    MEDIA_TEMP_DIR: join(mediaDir, 'tmp'),
    MEDIA_IMPORT_MAX_BYTES: String(1024 * 1024),
    MEDIA_IMPORT_ALLOW_PRIVATE: `127.0.0.1:${mediaPort}`,
  });
  const org = await createOrg(t.app, 'owner@import.test', 'Import Co');
  ({ owner, orgId } = org);
  support = (
    await addMember(t.app, owner, orgId, 'support@import.test', {
      roleId: org.roleId('CustomerSupport'),
    })
  ).actor;
  const other = await createOrg(t.app, 'outsider@import.test', 'Outsider Co');
  outsider = other.owner;
  outsiderOrgId = other.orgId;
  expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
  const list = (await owner.call('GET', `${base()}/integrations`)).body.data.platforms as Array<{
    id: string;
  }>;
  xId = list[0]!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  media?.closeAllConnections();
  media?.close();
  forbidden?.close();
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
});

describe('the file is refused whole, naming the problem, when its shape is wrong', () => {
  it('unknown, missing or repeated columns', async () => {
    const before = await postCount();
    let res = await dryRun(`text,acounts\nHello,x\n`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"acounts" (column 2)');
    res = await runImport(`text,time\nHello,${future(1)}\n`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('no "accounts" column');
    res = await dryRun(`text,accounts,text\nHello,x,Again\n`);
    expect(res.body.message).toContain('appears twice');
    res = await dryRun(`text,accounts,text:myspace\nHello,x,Hi\n`);
    expect(res.body.message).toContain('names a network Herald does not know');
    res = await dryRun(`text,accounts\n"never closed,x\n`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('never closed');
    expect(await postCount()).toBe(before);
  });

  it('100,000 rows: over the 5,000-row cap, nothing imported', async () => {
    const before = await postCount();
    const csv = `text,accounts\n${'Hi,x\n'.repeat(100_000)}`;
    const res = await runImport(csv, 'draft');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('100,000 post rows');
    expect(res.body.message).toContain('at most 5,000 rows');
    expect(await postCount()).toBe(before);
  });

  it('a bad mode or an empty file is a 400 naming the field', async () => {
    const res = await owner.call('POST', `${base()}/posts/import/dry-run`, {
      csv: 'text,accounts\nHi,x\n',
      mode: 'later',
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('mode');
    expect((await dryRun('text,accounts\n')).body.message).toContain('no post rows');
  });
});

describe('dry run', () => {
  it("gives each row's result with its row number and the composer's rules", async () => {
    const before = await postCount();
    const csv = [
      'text,accounts,time,media_urls,first_comment,alt_text',
      `Fine post,x,${future(2)},,,`,
      'Bad date,x,tomorrow at nine,,,',
      'In the past,x,2020-01-01T09:00:00Z,,,',
      `Nobody,@nobody_here,${future(2)},,,`,
      `${'y'.repeat(281)},x,${future(2)},,,`,
      `Local,x,${future(2)},http://127.0.0.1:${forbiddenPort}/ok.png,,`,
      `Two alts,${xId},${future(2)},http://127.0.0.1:${mediaPort}/ok.png,,a|b`,
      `Zoned,x,2031-05-01 09:00,,First!,`,
    ].join('\r\n');
    const res = await dryRun(csv);
    expect(res.status).toBe(200);
    const rows = res.body.data.rows as Array<{ row: number; ok: boolean; messages: string[] }>;
    expect(rows.map((r) => [r.row, r.ok])).toEqual([
      [2, true],
      [3, false],
      [4, false],
      [5, false],
      [6, false],
      [7, false],
      [8, false],
      [9, true],
    ]);
    expect(rows[1]!.messages[0]).toContain('time: "tomorrow at nine" is not a date and time');
    expect(rows[2]!.messages[0]).toContain('has already passed');
    expect(rows[3]!.messages[0]).toBe('accounts: no connected account matches "@nobody_here".');
    expect(rows[4]!.messages.join(' ')).toMatch(/text: .*280/);
    expect(rows[5]!.messages[0]).toContain('private or local address (127.0.0.1)');
    expect(rows[6]!.messages[0]).toContain('alt_text: 2 alt texts for 1 media URL');
    expect(res.body.data).toMatchObject({ valid: 2, invalid: 6 });
    expect(await postCount()).toBe(before);
  });

  it('reads a time without offset in the organization time zone', async () => {
    await owner.call('PATCH', base(), { defaultTimeZone: 'Europe/Paris' });
    const res = await dryRun(`text,accounts,time\nParis,x,2031-07-01 09:00\n`);
    expect(res.body.data.rows[0].scheduledAt).toBe('2031-07-01T07:00:00.000Z');
  });

  it('writes the times of its messages in the zone that applies, named: never raw UTC', async () => {
    const messagesOf = async (time: string) =>
      (await dryRun(`text,accounts,time\nZoned,x,${time}\n`)).body.data.rows[0]
        .messages as string[];
    await owner.call('PATCH', base(), { defaultTimeZone: 'Europe/Paris' });
    expect(await messagesOf('2020-01-31T09:00:00Z')).toEqual([
      'time: Jan 31, 2020, 10:00 AM (Europe/Paris) has already passed. Pick a time in the future.',
    ]);
    expect((await messagesOf('soon'))[0]).toBe(
      `time: "soon" is not a date and time. Write 2030-01-31T09:00:00Z, or 2030-01-31 09:00 in Europe/Paris (the organization's time zone).`,
    );

    // Without an organization zone, the importer's own.
    await owner.call('PUT', `/api/users/${owner.userId}`, {
      displayName: 'Owner',
      timezone: 'America/New_York',
    });
    await owner.call('PATCH', base(), { defaultTimeZone: null });
    expect(await messagesOf('2020-01-31 09:00')).toEqual([
      'time: Jan 31, 2020, 9:00 AM (America/New_York) has already passed. Pick a time in the future.',
    ]);
    expect((await messagesOf('soon'))[0]).toContain(
      'in America/New_York (your time zone; the organization has none set).',
    );
    await owner.call('PATCH', base(), { defaultTimeZone: 'Europe/Paris' });
  });
});

describe('import', () => {
  it('imports the valid rows, fetches media within limits and refuses the rest by row', async () => {
    const before = await postCount();
    const csv = [
      'text,accounts,time,media_urls,title',
      `With media,x,${future(3)},http://127.0.0.1:${mediaPort}/ok.png,Imported one`,
      `Huge,x,${future(3)},http://127.0.0.1:${mediaPort}/huge.mp4,`,
      `Endless,x,${future(3)},http://127.0.0.1:${mediaPort}/endless.png,`,
      `Redirected,x,${future(3)},http://127.0.0.1:${mediaPort}/redirect.png,`,
      `Html,x,${future(3)},http://127.0.0.1:${mediaPort}/page.html,`,
      'Bad date,x,31/12/2031,,',
      `Plain,x,${future(3)},,`,
    ].join('\n');
    const res = await runImport(csv);
    expect(res.status).toBe(200);
    expect(res.body.data.imported).toBe(2);
    const refused = res.body.data.refused as Array<{ row: number; message: string }>;
    expect(refused.map((r) => r.row)).toEqual([3, 4, 5, 6, 7]);
    expect(refused[0]!.message).toContain('Row 3: media_urls:');
    expect(refused[0]!.message).toContain('larger than the 1 MB');
    expect(refused[1]!.message).toContain('larger than the 1 MB');
    // The endless download was aborted near the cap, not read to its 50 MB end.
    expect(bytesSentToHuge).toBeLessThan(20 * 1024 ** 2);
    expect(refused[2]!.message).toContain('private or local address (127.0.0.1)');
    expect(refused[3]!.message).toContain('is not an image or a video');
    expect(refused[4]!.message).toContain('Row 7: time:');
    expect(await postCount()).toBe(before + 2);
    const [withMedia, plain] = res.body.data.postIds as string[];
    const post = (await owner.call('GET', `${base()}/posts/${withMedia}`)).body.data.post;
    expect(post.status).toBe('scheduled');
    expect(post.title).toBe('Imported one');
    expect(post.media).toHaveLength(1);
    expect(post.media[0].mimeType).toBe('image/png');
    expect((await owner.call('GET', `${base()}/posts/${plain}`)).body.data.post.media).toEqual([]);
  });

  it('as drafts; per-network text; batches of 100 each in their own transaction', async () => {
    // The Pro plan allows 250 posts a day: with the 2 above, batches 1 and 2 fit and batch 3
    // is refused whole (it would pass the allowance), naming its rows.
    const before = await postCount();
    const rows = Array.from({ length: 260 }, (_, i) => `Draft ${i + 1},x,X text ${i + 1}`);
    const res = await runImport(`text,accounts,text:x\n${rows.join('\n')}\n`, 'draft');
    expect(res.status).toBe(200);
    expect(res.body.data.imported).toBe(200);
    expect(res.body.data.refused).toHaveLength(60);
    expect(res.body.data.refused[0].row).toBe(202);
    expect(res.body.data.refused[0].message).toContain('Row 202: not imported.');
    expect(await postCount()).toBe(before + 200);
    const first = (await owner.call('GET', `${base()}/posts/${res.body.data.postIds[0]}`)).body.data
      .post;
    expect(first.status).toBe('draft');
    expect(first.scheduledAt).toBeNull();
    expect(Object.values(first.content)).toContain('X text 1');
  });

  it('a database failure writing a batch leaves no stored files, its own or the next batch', async () => {
    const storeDir = join(mediaDir, 'store');
    const storedFiles = async () =>
      (await readdir(storeDir, { recursive: true, withFileTypes: true }).catch(() => [])).filter(
        (entry) => entry.isFile(),
      ).length;
    const filesBefore = await storedFiles();
    const postsBefore = await postCount();
    // Counts the fetches still storing a file, to look at the store only once they are done.
    const store = createMediaStore(t.config, 'import-failure-signing-key');
    let storing = 0;
    let stored = 0;
    const media = new Proxy(store, {
      get(target, key, receiver) {
        if (key !== 'ingest') return Reflect.get(target, key, receiver);
        return async (...args: Parameters<MediaStore['ingest']>) => {
          storing++;
          try {
            const file = await target.ingest(...args);
            stored++;
            return file;
          } finally {
            storing--;
          }
        };
      },
    });
    // The database fails the first batch's transaction (not a refusal of the plan's).
    const db = new Proxy(t.database.db, {
      get(target, key, receiver) {
        if (key !== 'transaction') return Reflect.get(target, key, receiver);
        return async () => {
          throw new Error('Connection terminated unexpectedly');
        };
      },
    }) as Db;
    const ok = `http://127.0.0.1:${mediaPort}/ok.png`;
    // A full batch, then a second one whose media is fetched while the first is written.
    const rows = Array.from({ length: 104 }, (_, i) => `Row ${i + 1},x,${ok}`);
    const importing = importCsv(
      {
        db,
        media,
        lifecycle: { scheduled: async () => {}, unscheduled: async () => {} },
        now: () => new Date(),
        mediaImport: t.config.mediaImport,
      },
      { organizationId: orgId, userId: owner.userId, canApprove: true },
      `text,accounts,media_urls\n${rows.join('\n')}\n`,
      'draft',
      applicableTimeZone(null, null),
    );
    await expect(importing).rejects.toThrow('Connection terminated unexpectedly');
    for (let waited = 0; storing > 0 && waited < 100; waited++) await sleep(50);
    expect(storing).toBe(0);
    // Both batches' files were stored, then all of them removed: nothing was imported.
    expect(stored).toBe(104);
    expect(await storedFiles()).toBe(filesBefore);
    expect(await postCount()).toBe(postsBefore);
  });

  it('needs post:create, and matches only the organization own accounts', async () => {
    expect((await dryRun('text,accounts\nHi,x\n', 'draft', support)).status).toBe(403);
    expect((await runImport('text,accounts\nHi,x\n', 'draft', support)).status).toBe(403);
    expect((await dryRun('text,accounts\nHi,x\n', 'draft', outsider)).status).toBe(403);
    const foreign = await dryRun(`text,accounts\nHi,${xId}\n`, 'draft', outsider, outsiderOrgId);
    expect(foreign.body.data.rows[0].messages[0]).toContain('no connected account matches');
  });
});

describe('export', () => {
  it('names the file by the days of the zone that applies', async () => {
    // The organization is on Paris time (set above): its 1 March starts at 23:00 UTC the day before.
    const res = await send(t.app, owner.jar, {
      method: 'GET',
      url: `${base()}/posts/export.csv?from=2031-02-28T23:00:00Z&to=2031-03-07T23:00:00Z`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="posts-2031-03-01-to-2031-03-08.csv"',
    );
  });

  it('streams the posts of a range as CSV with statuses, accounts and permalinks', async () => {
    const res = await send(t.app, owner.jar, {
      method: 'GET',
      url: `${base()}/posts/export.csv?from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}&to=${encodeURIComponent(future(30))}&status=scheduled`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('attachment; filename="posts-');
    // Per-user data: no browser or shared cache keeps it.
    expect(res.headers['cache-control']).toBe('no-store');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      '"post_id","status","title","date","scheduled_at","published_at","created_at","text","accounts","networks","account_statuses","permalinks"',
    );
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).toContain('With media');
    expect(lines[1]).toContain(',"scheduled",');
    expect(lines[1]).toMatch(/,"X","QUEUED",""$/);
    const all = await send(t.app, owner.jar, {
      method: 'GET',
      url: `${base()}/posts/export.csv?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`,
    });
    // 202 posts plus the header: more than one page of 500? no — but every post once.
    const ids = readCsvAs(all.body, ',')
      .slice(1)
      .map((cells) => cells[0]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(202);
    const outsiderExport = await send(t.app, outsider.jar, {
      method: 'GET',
      url: `${base()}/posts/export.csv?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`,
    });
    expect(outsiderExport.statusCode).toBe(403);
  });

  it('keeps text whole in a spreadsheet that splits on semicolons', async () => {
    const { orgId: semiOrg, owner: semiOwner } = await createOrg(t.app, 'semi@import.test', 'Semi');
    await t.database.db.insert(posts).values({
      organizationId: semiOrg,
      status: 'draft',
      content: 'semi75;=1+2',
      title: 'a;-1+2',
    });
    const res = await send(t.app, semiOwner.jar, {
      method: 'GET',
      url: `/api/organizations/${semiOrg}/posts/export.csv?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(',"semi75;=1+2",');
    expect(res.body).toContain(',"a;-1+2",');
    expect(readCsvAs(res.body, ',')[1]).toContain('semi75;=1+2');
    expect(formulaCells(res.body)).toEqual([]);
  });
});

describe('first comment and alt text', () => {
  it('stores the first comment on each account that takes one and the alt texts on the files', async () => {
    expect(await connectThroughSandbox(t.app, owner, 'threads', orgId)).toContain('connected=');
    const ok = `http://127.0.0.1:${mediaPort}/ok.png`;
    const csv = [
      'text,accounts,time,media_urls,first_comment,alt_text',
      `Two files,x;threads,${future(4)},${ok} ${ok},"Link in this comment, see?",A red square | A blue square`,
      `One alt,x,${future(4)},${ok};${ok},,Only the first`,
      `Threads only,threads,${future(4)},,A comment,`,
    ].join('\n');
    const dry = await dryRun(csv);
    expect(dry.body.data.rows.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, false]);
    expect(dry.body.data.rows[2].messages[0]).toContain(
      "first_comment: none of the row's accounts takes a first comment",
    );
    const res = await runImport(csv);
    expect(res.status).toBe(200);
    expect(res.body.data.imported).toBe(2);
    expect(res.body.data.refused.map((r: { row: number }) => r.row)).toEqual([4]);
    const [twoFiles, oneAlt] = res.body.data.postIds as string[];

    const post = (await owner.call('GET', `${base()}/posts/${twoFiles}`)).body.data.post;
    expect(post.media.map((m: { altText: string | null }) => m.altText)).toEqual([
      'A red square',
      'A blue square',
    ]);
    const byNetwork = new Map(
      (
        post.platformPosts as Array<{
          platformName: string;
          followUps: Array<{ kind: string; text: string; status: string }>;
        }>
      ).map((target) => [target.platformName, target.followUps]),
    );
    expect(byNetwork.get('X')).toEqual([
      expect.objectContaining({
        kind: 'first_comment',
        text: 'Link in this comment, see?',
        status: 'QUEUED',
      }),
    ]);
    // Threads takes no first comment: its publication has none.
    expect(byNetwork.get('Threads')).toEqual([]);

    const second = (await owner.call('GET', `${base()}/posts/${oneAlt}`)).body.data.post;
    // The row gives its second file no alt text. Every file here is ok.png, which the media
    // library holds once, with the first alt text given for it ("A red square"): that text is the
    // default wherever the file is used again.
    expect(second.media.map((m: { altText: string | null }) => m.altText)).toEqual([
      'Only the first',
      'A red square',
    ]);
    expect(second.platformPosts[0].followUps).toEqual([]);
  });
});
