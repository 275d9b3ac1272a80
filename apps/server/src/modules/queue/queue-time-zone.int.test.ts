import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { connectThroughSandbox } from '../../test/networks.js';

/**
 * The queue's time zone (docs/queue-and-import.md#the-queues-time-zone). The clock is Friday
 * 2026-03-06 12:00 UTC; the next Monday is 2026-03-09, when Paris is on UTC+1 and Tokyo on UTC+9.
 * The organization starts without a time zone; its owner lives in Paris, a second admin in
 * New York.
 */
const NOW = new Date('2026-03-06T12:00:00Z');
let t: TestApp;
let paris: Actor;
let newYork: Actor;
let orgId: string;
let xId: string;
let threadsId: string;

const base = () => `/api/organizations/${orgId}`;
const zoneOf = async (actor: Actor) => {
  const res = await actor.call('GET', `${base()}/queue`);
  expect(res.status).toBe(200);
  const { timeZone, timeZoneSource, timeZoneSetBy } = res.body.data;
  return { timeZone, timeZoneSource, timeZoneSetBy };
};
const nextSlot = async (id: string) =>
  (await paris.call('GET', `${base()}/queue/next?integrationIds=${id}`)).body.data.at as string;
const mondayNine = [{ weekday: 0, time: '09:00' }];

beforeAll(async () => {
  t = await createTestApp({}, { now: () => NOW });
  const org = await createOrg(t.app, 'paris@queue-zone.test', 'Zone Queue Co');
  ({ owner: paris, orgId } = org);
  newYork = (
    await addMember(t.app, paris, orgId, 'new-york@queue-zone.test', {
      roleId: org.roleId('Admin'),
    })
  ).actor;
  for (const [actor, zone, name] of [
    [paris, 'Europe/Paris', 'Paul Paris'],
    [newYork, 'America/New_York', 'Nina York'],
  ] as const) {
    const res = await actor.call('PUT', `/api/users/${actor.userId}`, {
      displayName: name,
      timezone: zone,
    });
    expect(res.status).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("the queue's time zone", () => {
  it("is each reader's own until the first account brings its week, then its connector's for everyone", async () => {
    expect(await zoneOf(newYork)).toEqual({
      timeZone: 'America/New_York',
      timeZoneSource: 'member',
      timeZoneSetBy: null,
    });
    expect((await zoneOf(paris)).timeZone).toBe('Europe/Paris');

    // A first connection gives the account a week of times: they are read in Paris, for everyone.
    expect(await connectThroughSandbox(t.app, paris, 'x', orgId)).toContain('connected=');
    const kept = { id: paris.userId, name: 'Paul Paris' };
    expect(await zoneOf(newYork)).toEqual({
      timeZone: 'Europe/Paris',
      timeZoneSource: 'queue',
      timeZoneSetBy: kept,
    });
    expect(await connectThroughSandbox(t.app, newYork, 'threads', orgId)).toContain('connected=');
    const list = (await paris.call('GET', `${base()}/integrations`)).body.data.platforms as Array<{
      id: string;
      platform: { name: string };
    }>;
    xId = list.find((a) => a.platform.name.toLowerCase() === 'x')!.id;
    threadsId = list.find((a) => a.platform.name.toLowerCase() === 'threads')!.id;
    // Connecting from New York keeps the zone the first week came in.
    expect((await zoneOf(newYork)).timeZoneSetBy).toEqual(kept);

    expect((await paris.call('PUT', `${base()}/queue/${xId}`, { slots: mondayNine })).status).toBe(
      200,
    );
    expect(await zoneOf(newYork)).toEqual({
      timeZone: 'Europe/Paris',
      timeZoneSource: 'queue',
      timeZoneSetBy: kept,
    });
    // Monday 09:00 in Paris.
    expect(await nextSlot(xId)).toBe('2026-03-09T08:00:00.000Z');

    // Saving from New York keeps the zone the times were first saved in: nothing moves.
    expect(
      (await newYork.call('PUT', `${base()}/queue/${threadsId}`, { slots: mondayNine })).status,
    ).toBe(200);
    expect(await zoneOf(paris)).toEqual({
      timeZone: 'Europe/Paris',
      timeZoneSource: 'queue',
      timeZoneSetBy: kept,
    });
    expect(await nextSlot(threadsId)).toBe('2026-03-09T08:00:00.000Z');
    expect(await nextSlot(xId)).toBe('2026-03-09T08:00:00.000Z');
  });

  it("follows the organization's time zone once it has one, and keeps it when it is cleared", async () => {
    expect((await paris.call('PATCH', base(), { defaultTimeZone: 'Asia/Tokyo' })).status).toBe(200);
    expect(await zoneOf(newYork)).toEqual({
      timeZone: 'Asia/Tokyo',
      timeZoneSource: 'organization',
      timeZoneSetBy: null,
    });
    // Monday 09:00 in Tokyo is midnight UTC.
    expect(await nextSlot(xId)).toBe('2026-03-09T00:00:00.000Z');
    const slots = await newYork.call(
      'GET',
      `${base()}/queue/slots?from=2026-03-08T00:00:00Z&to=2026-03-10T00:00:00Z`,
    );
    expect(slots.body.data.slots.map((s: { at: string }) => s.at)).toEqual([
      '2026-03-09T00:00:00.000Z',
    ]);

    // Times saved under the organization's zone keep it if the organization drops it.
    expect(
      (await newYork.call('PUT', `${base()}/queue/${xId}`, { slots: mondayNine })).status,
    ).toBe(200);
    expect((await paris.call('PATCH', base(), { defaultTimeZone: null })).status).toBe(200);
    expect(await zoneOf(paris)).toEqual({
      timeZone: 'Asia/Tokyo',
      timeZoneSource: 'queue',
      timeZoneSetBy: null,
    });
    expect(await nextSlot(xId)).toBe('2026-03-09T00:00:00.000Z');
  });
});
