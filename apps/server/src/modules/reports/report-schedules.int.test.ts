import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../../lib/mailer.js';
import { seedConnectedAccount, seedPublishedPost } from '../../test/analytics-seed.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { png } from '../../test/media-fixtures.js';
import { multipart } from '../../test/multipart.js';
import { readPdf } from '../../test/pdf.js';
import { mimeParts, startSmtpCatcher } from '../../test/smtp-catcher.js';
import { listSchedules, type ReportsDeps, sendDueReports } from './reports.service.js';

let t: TestApp;
/** The same database served without SMTP (invitations then give their links; no report email). */
let plain: TestApp;
let dir: string;
let catcher: Awaited<ReturnType<typeof startSmtpCatcher>>;
let owner: Actor;
let orgId: string;
let manager: Actor;
let orgManager: Actor;
let outsider: Actor;
let outsiderOrgId: string;
let igId: string;
let foreignAccountId: string;

/**
 * The API's clock: Wednesday 4 March 2026, when the schedules are made. The job's runs, and the
 * schedules read at their times, each get their own instant (`jobDeps`).
 */
const clock = () => new Date('2026-03-04T10:00:00Z');
const log = pino({ level: 'silent' });

const base = () => `/api/organizations/${orgId}/report-schedules`;
const valid = {
  name: 'Weekly report for Acme',
  cadence: 'weekly',
  recipients: ['client@acme.test', 'Boss@Acme.test'],
};

const smtp = () => createMailer(catcher.url, 'Herald <r@herald.test>');

/**
 * The job's dependencies as a worker process builds them at `at` (a new object each time: a new
 * process, or one restarted).
 */
const jobDeps = (at: string, mailer: Mailer | null = smtp()) =>
  ({
    db: t.database.db,
    media: t.runtime.media,
    mailer,
    now: () => new Date(at),
    log,
  }) satisfies ReportsDeps;
const run = (at: string, mailer?: Mailer | null) => sendDueReports(jobDeps(at, mailer));

/** A schedule as the schedule screen would list it at `at`. */
async function listedAt(at: string, id: string) {
  const { schedules } = await listSchedules(jobDeps(at), { accountIds: null }, orgId);
  return schedules.find((s) => s.id === id)!;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) as text. */
const decodeWords = (header: string) =>
  header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );

const subjects = () =>
  catcher.received.map((m) =>
    decodeWords(/^Subject: (.*)$/m.exec(m.raw.replace(/\r\n[ \t]/g, ' '))![1]!),
  );

/** The same person, their requests served by `app` (another process on the same database). */
function on(app: TestApp['app'], actor: Actor): Actor {
  return {
    ...actor,
    async call(method, url, body) {
      const res = await send(app, actor.jar, {
        method,
        url,
        headers: {
          origin: TEST_PUBLIC_URL,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      return {
        status: res.statusCode,
        body: res.headers['content-type']?.toString().includes('json') ? res.json() : null,
      };
    },
  };
}

/** The PDF attached to a received message, read back. */
async function attachedPdf(raw: string) {
  const part = mimeParts(raw).find((p) => p.headers['content-type']?.startsWith('application/pdf'));
  expect(part).toBeDefined();
  return { disposition: part!.headers['content-disposition']!, pdf: await readPdf(part!.body) };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-report-mail-'));
  catcher = await startSmtpCatcher();
  t = await createTestApp(
    {
      MEDIA_DIR: join(dir, 'store'),
      MEDIA_TEMP_DIR: join(dir, 'tmp'),
      SMTP_URL: catcher.url,
      MAIL_FROM: 'Herald <reports@herald.test>',
    },
    { now: clock },
  );
  plain = await createTestApp({}, { database: t.database, mailer: null, now: clock });
  const org = await createOrg(t.app, 'mail.owner@example.com', 'Acme Agency');
  ({ owner, orgId } = org);
  await owner.call('PATCH', `/api/organizations/${orgId}`, { defaultTimeZone: 'Europe/Paris' });
  await owner.call('PUT', `/api/organizations/${orgId}/branding`, { color: '#0f766e' });
  const logo = await multipart({}, [
    { name: 'logo.png', type: 'image/png', data: await png(200, 80), field: 'logo' },
  ]);
  await send(t.app, owner.jar, {
    method: 'PUT',
    url: `/api/organizations/${orgId}/branding/logo`,
    headers: { ...logo.headers, origin: TEST_PUBLIC_URL },
    payload: logo.payload,
  });
  manager = (
    await addMember(plain.app, on(plain.app, owner), orgId, 'mail.manager@example.com', {
      roleId: org.roleId('SocialMediaManager'),
    })
  ).actor;
  const role = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
    name: 'Settings only',
    permissionIds: ['org:manage'],
  });
  orgManager = (
    await addMember(plain.app, on(plain.app, owner), orgId, 'mail.settings@example.com', {
      roleId: role.body.data.role.id,
    })
  ).actor;
  const other = await createOrg(t.app, 'mail.outsider@example.com', 'Elsewhere');
  outsider = other.owner;
  outsiderOrgId = other.orgId;

  const platforms = (await owner.call('GET', '/api/platforms/supported')).body.data
    .platforms as Array<{ id: string; name: string }>;
  const instagram = platforms.find((p) => p.name === 'Instagram')!.id;
  igId = await seedConnectedAccount(t.database.db, orgId, instagram, 'Acme IG');
  foreignAccountId = await seedConnectedAccount(t.database.db, other.orgId, instagram, 'Other IG');
  await seedPublishedPost(t.database.db, {
    organizationId: orgId,
    integrationId: igId,
    platformId: instagram,
    accountName: 'Acme IG',
    content: 'Week nine post',
    publishedAt: '2026-02-25T10:00:00Z',
    readings: [['2026-02-26T10:00:00Z', 1111, 900, 55]],
  });
  await seedPublishedPost(t.database.db, {
    organizationId: orgId,
    integrationId: igId,
    platformId: instagram,
    accountName: 'Acme IG',
    content: 'Week ten post',
    publishedAt: '2026-03-03T10:00:00Z',
    readings: [['2026-03-04T10:00:00Z', 2345, 2000, 120]],
  });
}, 120_000);

afterAll(async () => {
  await plain?.close();
  await t?.close();
  await catcher?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('report schedules: validation', () => {
  it('refuses bad recipients, cadences, hours, names and accounts with a sentence', async () => {
    const cases: Array<[object, string]> = [
      [
        { ...valid, recipients: ['client@acme.test', 'bob@'] },
        'The body is invalid: recipients.1: “bob@” is not an email address: write it like name@example.com.',
      ],
      [
        { ...valid, recipients: [] },
        'The body is invalid: recipients: Add at least one address to send the report to.',
      ],
      [
        { ...valid, recipients: Array.from({ length: 11 }, (_, i) => `c${i}@acme.test`) },
        'The body is invalid: recipients: A report goes to at most 10 addresses: send another report for more.',
      ],
      [
        { ...valid, cadence: 'daily' },
        'The body is invalid: cadence: Choose how often the report goes out: weekly or monthly.',
      ],
      [
        { ...valid, sendHour: 24 },
        'The body is invalid: sendHour: The hour to send is a whole hour from 0 to 23.',
      ],
      [
        { ...valid, name: '  ' },
        'The body is invalid: name: Name the report, for example "Weekly report for Acme".',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await owner.call('POST', base(), body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const foreign = await owner.call('POST', base(), {
      ...valid,
      integrationIds: [foreignAccountId],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(
      'Choose accounts of this organization: one of the chosen accounts does not exist.',
    );
    expect((await owner.call('GET', base())).body.data.schedules).toEqual([]);
  });
});

describe('report schedules: managing them', () => {
  it('creates, lists, changes and deletes, in the organization zone', async () => {
    const created = await owner.call('POST', base(), { ...valid, integrationIds: [igId] });
    expect(created.status).toBe(201);
    const schedule = created.body.data.schedule;
    expect(schedule).toMatchObject({
      name: 'Weekly report for Acme',
      cadence: 'weekly',
      // Lower-cased and without repeats.
      recipients: ['client@acme.test', 'boss@acme.test'],
      integrationIds: [igId],
      sendHour: 8,
      lastDelivery: null,
      // Created on Wednesday 4 March: the first email is Monday's, 08:00 in Paris.
      nextPeriod: { from: '2026-03-02', to: '2026-03-08' },
      nextSendAt: '2026-03-09T07:00:00.000Z',
    });

    const list = await owner.call('GET', base());
    expect(list.body.data).toMatchObject({
      timeZone: 'Europe/Paris',
      email: { available: true, reason: null },
    });
    expect(list.body.data.schedules.map((s: { id: string }) => s.id)).toEqual([schedule.id]);

    const changed = await owner.call('PATCH', `${base()}/${schedule.id}`, {
      recipients: ['new@acme.test'],
      cadence: 'monthly',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.schedule).toMatchObject({
      recipients: ['new@acme.test'],
      cadence: 'monthly',
      nextPeriod: { from: '2026-03-01', to: '2026-03-31' },
    });
    const empty = await owner.call('PATCH', `${base()}/${schedule.id}`, {});
    expect(empty.status).toBe(400);

    // Another organization's member cannot see, change or send it through their own.
    const foreignPath = `/api/organizations/${outsiderOrgId}/report-schedules/${schedule.id}`;
    expect((await outsider.call('PATCH', foreignPath, { name: 'Mine' })).status).toBe(404);
    expect((await outsider.call('POST', `${foreignPath}/send`)).status).toBe(404);
    expect((await outsider.call('DELETE', foreignPath)).status).toBe(404);
    expect((await outsider.call('GET', base())).status).toBe(403);

    expect((await owner.call('DELETE', `${base()}/${schedule.id}`)).status).toBe(200);
    expect((await owner.call('DELETE', `${base()}/${schedule.id}`)).status).toBe(404);
  });

  it('needs Manage Organization, and View Analytics to create, change or send', async () => {
    const refused = await manager.call('GET', base());
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Manage Organization/);
    expect((await orgManager.call('GET', base())).status).toBe(200);
    const noAnalytics = await orgManager.call('POST', base(), valid);
    expect(noAnalytics.status).toBe(403);
    expect(noAnalytics.body.message).toMatch(/also need the "View Analytics" permission/);
  });
});

describe('without SMTP', () => {
  it('says email cannot be sent and why, refuses "Send now", and the job claims nothing', async () => {
    const created = await owner.call('POST', base(), { ...valid, name: 'No mail' });
    const id = created.body.data.schedule.id;
    const viaPlain = on(plain.app, owner);
    const list = await viaPlain.call('GET', base());
    expect(list.body.data.email).toEqual({
      available: false,
      reason: expect.stringMatching(/SMTP_URL is not set/),
    });
    const sendNow = await viaPlain.call('POST', `${base()}/${id}/send`);
    expect(sendNow.status).toBe(409);
    expect(sendNow.body.message).toMatch(/sends no email: SMTP_URL is not set/);

    expect(await run('2026-03-09T07:05:00Z', null)).toEqual({ sent: 0, failed: 0 });
    // Once SMTP is set, the period still due goes out.
    const before = catcher.received.length;
    expect(await run('2026-03-09T07:10:00Z')).toEqual({ sent: 1, failed: 0 });
    expect(catcher.received.length).toBe(before + 1);
    await owner.call('DELETE', `${base()}/${id}`);
  });
});

describe('report emails', () => {
  it('"Send now" emails the last complete period with the PDF and the branding', async () => {
    const created = await owner.call('POST', base(), {
      ...valid,
      name: 'Send-now check',
      recipients: ['now@acme.test'],
    });
    const id = created.body.data.schedule.id;
    const before = catcher.received.length;
    const res = await owner.call('POST', `${base()}/${id}/send`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      period: { from: '2026-02-23', to: '2026-03-01' },
      recipients: ['now@acme.test'],
      message: 'The report for 23 Feb 2026 – 1 Mar 2026 was sent to now@acme.test.',
    });
    expect(catcher.received).toHaveLength(before + 1);
    const mail = catcher.received.at(-1)!;
    expect(mail.to).toEqual(['now@acme.test']);
    expect(subjects().at(-1)).toBe('Acme Agency: social media report, 23 Feb 2026 – 1 Mar 2026');
    const parts = mimeParts(mail.raw);
    const html = parts.find((p) => p.headers['content-type']?.startsWith('text/html'));
    expect(html?.body.toString('utf8')).toContain('background:#0f766e');
    expect(html?.body.toString('utf8')).toContain('src="cid:brand-logo@herald"');
    const inline = parts.find((p) => p.headers['content-type']?.startsWith('image/png'));
    expect(inline?.headers['content-id']).toBe('<brand-logo@herald>');

    const { disposition, pdf } = await attachedPdf(mail.raw);
    expect(disposition).toMatch(/filename="?acme-agency-report-2026-02-23-2026-03-01\.pdf"?/);
    const { kpis } = (
      await owner.call(
        'GET',
        `/api/organizations/${orgId}/analytics/overview?from=2026-02-23&to=2026-03-01`,
      )
    ).body.data;
    expect(kpis.views.value).toBe(1111);
    expect(pdf.pageTexts[0]).toContain('Acme Agency');
    expect(pdf.pageTexts[0]).toContain('23 Feb 2026 – 1 Mar 2026');
    expect(pdf.pageTexts[0]).toContain('Views 1,111');
    expect(pdf.pageTexts[0]).toContain('Interactions 55');
    expect(pdf.imagesPerPage[0]).toBe(1);
    // "Send now" is not the period's delivery: the scheduled email still goes.
    const listed = (await owner.call('GET', base())).body.data.schedules.find(
      (s: { id: string }) => s.id === id,
    );
    expect(listed.lastDelivery).toBeNull();
    await owner.call('DELETE', `${base()}/${id}`);
  });

  it('sends one email to several addresses without showing them to each other', async () => {
    const created = await owner.call('POST', base(), {
      ...valid,
      name: 'Two clients',
      recipients: ['ana@client-one.test', 'ben@client-two.test'],
    });
    const id = created.body.data.schedule.id;
    const before = catcher.received.length;
    expect((await owner.call('POST', `${base()}/${id}/send`)).status).toBe(200);
    expect(catcher.received).toHaveLength(before + 1);
    const mail = catcher.received.at(-1)!;
    expect(mail.to.sort()).toEqual(['ana@client-one.test', 'ben@client-two.test']);
    const headers = mail.raw.split('\r\n\r\n')[0]!;
    expect(headers).toMatch(/^To: "?undisclosed-recipients"?:;$/m);
    expect(headers).not.toContain('ana@client-one.test');
    expect(headers).not.toContain('ben@client-two.test');
    await owner.call('DELETE', `${base()}/${id}`);
  });

  it('goes out once per period, whatever the number of runs, processes and restarts', async () => {
    const created = await owner.call('POST', base(), {
      ...valid,
      name: 'Weekly',
      recipients: ['weekly@acme.test'],
    });
    const id = created.body.data.schedule.id;
    const weekly = () => catcher.received.filter((m) => m.to.includes('weekly@acme.test'));

    // The week before it was made is never sent; Monday before 08:00 in Paris is too early.
    expect(await run('2026-03-05T10:00:00Z')).toEqual({ sent: 0, failed: 0 });
    expect(await run('2026-03-09T06:55:00Z')).toEqual({ sent: 0, failed: 0 });

    // 08:05 in Paris: two workers run at once, then again: one email.
    await Promise.all([run('2026-03-09T07:05:00Z'), run('2026-03-09T07:05:00Z')]);
    expect(weekly()).toHaveLength(1);
    await run('2026-03-09T07:06:00Z');
    expect(weekly()).toHaveLength(1);
    expect(weekly()[0]!.to).toEqual(['weekly@acme.test']);
    const { pdf } = await attachedPdf(weekly()[0]!.raw);
    expect(pdf.pageTexts[0]).toContain('2 Mar 2026 – 8 Mar 2026');
    expect(pdf.pageTexts[0]).toContain('Views 2,345');

    let listed = await listedAt('2026-03-09T07:30:00Z', id);
    expect(listed.lastDelivery).toMatchObject({
      from: '2026-03-02',
      to: '2026-03-08',
      status: 'sent',
      error: null,
    });
    expect(listed.nextPeriod).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(listed.nextSendAt).toBe('2026-03-16T07:00:00.000Z');

    // A restarted worker later in the week sends nothing more.
    await run('2026-03-12T15:00:00Z');
    expect(weekly()).toHaveLength(1);

    // The next Monday, the next week.
    expect((await run('2026-03-16T07:10:00Z')).sent).toBe(1);
    expect(weekly()).toHaveLength(2);
    expect((await attachedPdf(weekly()[1]!.raw)).pdf.pageTexts[0]).toContain(
      '9 Mar 2026 – 15 Mar 2026',
    );

    // A mail server that refuses: recorded with its reason, tried again 30 minutes later.
    const refusing: Mailer = {
      send: async () => {
        throw new Error('550 mailbox unavailable');
      },
    };
    expect(await run('2026-03-23T07:05:00Z', refusing)).toEqual({ sent: 0, failed: 1 });
    listed = await listedAt('2026-03-23T07:10:00Z', id);
    expect(listed.lastDelivery).toMatchObject({
      from: '2026-03-16',
      status: 'failed',
      error: 'The mail server refused the report: 550 mailbox unavailable',
    });
    expect(await run('2026-03-23T07:20:00Z')).toEqual({ sent: 0, failed: 0 });
    expect(await run('2026-03-23T07:40:00Z')).toEqual({ sent: 1, failed: 0 });
    expect(weekly()).toHaveLength(3);
    await owner.call('DELETE', `${base()}/${id}`);
  });

  it('sends the previous calendar month on the 1st, at the hour in the zone (summer time)', async () => {
    const created = await owner.call('POST', base(), {
      ...valid,
      name: 'Monthly',
      cadence: 'monthly',
      recipients: ['monthly@acme.test'],
    });
    expect(created.body.data.schedule.nextSendAt).toBe('2026-04-01T06:00:00.000Z');
    const monthly = () => catcher.received.filter((m) => m.to.includes('monthly@acme.test'));
    // Paris is UTC+2 from 29 March: 08:00 on 1 April is 06:00 UTC.
    await run('2026-04-01T05:50:00Z');
    expect(monthly()).toHaveLength(0);
    await run('2026-04-01T06:05:00Z');
    expect(monthly()).toHaveLength(1);
    const { pdf } = await attachedPdf(monthly()[0]!.raw);
    // March's posts only: the one published on 25 February counts for February.
    expect(pdf.pageTexts[0]).toContain('1 Mar 2026 – 31 Mar 2026');
    expect(pdf.pageTexts[0]).toContain('Views 2,345');
    await owner.call('DELETE', `${base()}/${created.body.data.schedule.id}`);
  });
});
