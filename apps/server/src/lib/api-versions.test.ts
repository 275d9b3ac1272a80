import { describe, expect, it } from 'vitest';
import {
  apiVersionStatus,
  isApiVersionServed,
  LINKEDIN_API_VERSIONS,
  META_GRAPH_VERSIONS,
  oldestServedVersion,
  recommendedApiVersion,
} from './api-versions.js';

const at = (iso: string) => new Date(iso);

describe('the API version tables', () => {
  it('list each network’s versions oldest first, with Herald’s default among the served ones', () => {
    for (const table of [LINKEDIN_API_VERSIONS, META_GRAPH_VERSIONS]) {
      const released = table.versions.map((v) => v.released);
      expect([...released].sort()).toEqual(released);
      for (const v of table.versions) if (v.sunset) expect(v.sunset > v.released).toBe(true);
      expect(table.versions.some((v) => v.version === table.defaultVersion)).toBe(true);
    }
  });

  it('count a version as ending 90 days before its sunset, and ended from its sunset day on', () => {
    // LinkedIn sunsets 202601 on 2027-01-15 (announced).
    expect(
      apiVersionStatus(LINKEDIN_API_VERSIONS, '202601', at('2026-10-16T23:59:59Z')),
    ).toMatchObject({ state: 'served', daysLeft: 91 });
    expect(
      apiVersionStatus(LINKEDIN_API_VERSIONS, '202601', at('2026-10-17T00:00:00Z')),
    ).toMatchObject({ state: 'ending', daysLeft: 90 });
    expect(
      apiVersionStatus(LINKEDIN_API_VERSIONS, '202601', at('2027-01-14T23:59:59Z')),
    ).toMatchObject({ state: 'ending', daysLeft: 1 });
    expect(
      apiVersionStatus(LINKEDIN_API_VERSIONS, '202601', at('2027-01-15T00:00:00Z')),
    ).toMatchObject({ state: 'ended' });
    expect(apiVersionStatus(LINKEDIN_API_VERSIONS, '202512', at('2026-12-02T12:00:00Z'))).toEqual({
      state: 'unknown',
    });
    expect(
      apiVersionStatus(META_GRAPH_VERSIONS, 'v27.0', at('2026-11-03T23:59:59Z')),
    ).toMatchObject({
      state: 'unreleased',
    });
    expect(apiVersionStatus(META_GRAPH_VERSIONS, 'v27.0', at('2026-11-04T00:00:00Z'))).toEqual({
      state: 'served',
      entry: expect.objectContaining({ version: 'v27.0', sunset: null }),
      daysLeft: null,
    });
  });

  it('say what a network serves: Meta answers an ended version as its oldest served one', () => {
    const now = at('2026-12-02T12:00:00Z');
    expect(isApiVersionServed(LINKEDIN_API_VERSIONS, '202510', now)).toBe(false);
    expect(isApiVersionServed(LINKEDIN_API_VERSIONS, '202511', now)).toBe(false);
    expect(isApiVersionServed(LINKEDIN_API_VERSIONS, '202601', now)).toBe(true);
    expect(oldestServedVersion(META_GRAPH_VERSIONS, now)).toBe('v21.0');
    expect(oldestServedVersion(META_GRAPH_VERSIONS, at('2027-01-21T00:00:00Z'))).toBe('v22.0');
  });

  it('recommend Herald’s default while it is served and not ending, else the newest served version', () => {
    expect(recommendedApiVersion(META_GRAPH_VERSIONS, at('2026-12-02T12:00:00Z'))).toBe('v24.0');
    expect(recommendedApiVersion(META_GRAPH_VERSIONS, at('2027-12-01T00:00:00Z'))).toBe('v27.0');
    expect(recommendedApiVersion(LINKEDIN_API_VERSIONS, at('2026-12-02T12:00:00Z'))).toBe('202610');
    expect(recommendedApiVersion(LINKEDIN_API_VERSIONS, at('2027-08-01T00:00:00Z'))).toBe('202611');
  });
});
