/**
 * The API versions Herald knows for the networks that retire theirs on a date: LinkedIn (the
 * `LinkedIn-Version` header) and Meta's Graph API (the `/v24.0/` path prefix). One table per
 * network, read by the adapters (the default and the sentence of a refusal), by the emulators
 * (which versions they serve) and by the preflight (`herald doctor` warns before a sunset), so
 * the three never disagree (docs/networks.md#api-versions).
 *
 * A date here is a day in UTC: `released` is the first day the network serves the version,
 * `sunset` the first day it no longer does.
 */
export interface ApiVersion {
  version: string;
  released: string;
  /** Null while the network has announced no end (nor can one be derived from its policy). */
  sunset: string | null;
  /** False when `sunset` is derived from the network's published policy, not announced. */
  sunsetAnnounced: boolean;
}

export interface ApiVersionTable {
  /** "LinkedIn", "Meta": the subject of the sentences below. */
  network: string;
  /** The environment variable that chooses the version. */
  setting: string;
  /** What Herald sends unless the setting says otherwise. */
  defaultVersion: string;
  /** Oldest first. */
  versions: readonly ApiVersion[];
}

/** How long before a sunset the preflight starts warning. */
export const SUNSET_WARNING_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * LinkedIn Marketing API versions (https://learn.microsoft.com/en-us/linkedin/marketing/versioning):
 * one a month, each served for at least a year, then every call naming it is refused with
 * 426 NONEXISTENT_VERSION. Announced sunsets are from
 * https://learn.microsoft.com/en-us/linkedin/marketing/integrations/migrations (read 2026-12-02);
 * LinkedIn released no December 2025 version. For the later ones no date is announced yet: their
 * sunset is taken as the 15th of the month a year after release, the earliest LinkedIn has used.
 */
export const LINKEDIN_API_VERSIONS: ApiVersionTable = {
  network: 'LinkedIn',
  setting: 'LINKEDIN_API_VERSION',
  defaultVersion: '202610',
  versions: [
    { version: '202510', released: '2025-10-01', sunset: '2026-10-15', sunsetAnnounced: true },
    { version: '202511', released: '2025-11-01', sunset: '2026-11-16', sunsetAnnounced: true },
    { version: '202601', released: '2026-01-01', sunset: '2027-01-15', sunsetAnnounced: true },
    { version: '202602', released: '2026-02-01', sunset: '2027-02-15', sunsetAnnounced: true },
    { version: '202603', released: '2026-03-01', sunset: '2027-03-16', sunsetAnnounced: true },
    { version: '202604', released: '2026-04-01', sunset: '2027-04-15', sunsetAnnounced: false },
    { version: '202605', released: '2026-05-01', sunset: '2027-05-15', sunsetAnnounced: false },
    { version: '202606', released: '2026-06-01', sunset: '2027-06-15', sunsetAnnounced: false },
    { version: '202607', released: '2026-07-01', sunset: '2027-07-15', sunsetAnnounced: false },
    { version: '202608', released: '2026-08-01', sunset: '2027-08-15', sunsetAnnounced: false },
    { version: '202609', released: '2026-09-01', sunset: '2027-09-15', sunsetAnnounced: false },
    { version: '202610', released: '2026-10-01', sunset: '2027-10-15', sunsetAnnounced: false },
    { version: '202611', released: '2026-11-01', sunset: '2027-11-15', sunsetAnnounced: false },
  ],
};

/**
 * Graph API versions (https://developers.facebook.com/docs/graph-api/changelog/versions, read
 * 2026-12-02; v27.0 from https://developers.facebook.com/blog/post/2026/11/04/introducing-graph-api-v27-and-marketing-api-v27/).
 * A version is served until two years after its successor's release
 * (https://developers.facebook.com/docs/graph-api/guides/versioning): v26.0's end follows from
 * v27.0's release; v27.0 has no successor yet. After the end Meta does not refuse the calls: it
 * answers them as the oldest version it still serves, so only the preflight tells.
 */
export const META_GRAPH_VERSIONS: ApiVersionTable = {
  network: 'Meta',
  setting: 'META_GRAPH_VERSION',
  defaultVersion: 'v24.0',
  versions: [
    { version: 'v19.0', released: '2024-01-23', sunset: '2026-05-21', sunsetAnnounced: true },
    { version: 'v20.0', released: '2024-05-21', sunset: '2026-09-24', sunsetAnnounced: true },
    { version: 'v21.0', released: '2024-10-02', sunset: '2027-01-21', sunsetAnnounced: true },
    { version: 'v22.0', released: '2025-01-21', sunset: '2027-05-20', sunsetAnnounced: true },
    { version: 'v23.0', released: '2025-05-29', sunset: '2027-10-08', sunsetAnnounced: true },
    { version: 'v24.0', released: '2025-10-08', sunset: '2028-02-18', sunsetAnnounced: true },
    { version: 'v25.0', released: '2026-02-18', sunset: '2028-07-29', sunsetAnnounced: true },
    { version: 'v26.0', released: '2026-07-29', sunset: '2028-11-04', sunsetAnnounced: false },
    { version: 'v27.0', released: '2026-11-04', sunset: null, sunsetAnnounced: false },
  ],
};

export type ApiVersionStatus =
  /** Not in the table (a typing error, or a version newer than this Herald). */
  | { state: 'unknown' }
  /** In the table, but its release day has not come. */
  | { state: 'unreleased'; entry: ApiVersion }
  /** Served; `daysLeft` is null without a known end. */
  | { state: 'served'; entry: ApiVersion; daysLeft: number | null }
  /** Served, but its sunset is at most SUNSET_WARNING_DAYS away. */
  | { state: 'ending'; entry: ApiVersion; daysLeft: number }
  | { state: 'ended'; entry: ApiVersion };

const isServed = (entry: ApiVersion, nowMs: number) =>
  dayStart(entry.released) <= nowMs && (entry.sunset === null || nowMs < dayStart(entry.sunset));

/** Where `version` stands on `now`. */
export function apiVersionStatus(
  table: ApiVersionTable,
  version: string,
  now: Date,
): ApiVersionStatus {
  const entry = table.versions.find((v) => v.version === version);
  if (!entry) return { state: 'unknown' };
  const nowMs = now.getTime();
  if (nowMs < dayStart(entry.released)) return { state: 'unreleased', entry };
  if (entry.sunset === null) return { state: 'served', entry, daysLeft: null };
  const left = dayStart(entry.sunset) - nowMs;
  if (left <= 0) return { state: 'ended', entry };
  const daysLeft = Math.ceil(left / DAY_MS);
  return daysLeft <= SUNSET_WARNING_DAYS
    ? { state: 'ending', entry, daysLeft }
    : { state: 'served', entry, daysLeft };
}

/** Whether the network serves `version` on `now` (what an emulator accepts). */
export const isApiVersionServed = (table: ApiVersionTable, version: string, now: Date) => {
  const entry = table.versions.find((v) => v.version === version);
  return entry !== undefined && isServed(entry, now.getTime());
};

/** The oldest version served on `now`: where Meta sends the calls of an ended one. */
export const oldestServedVersion = (table: ApiVersionTable, now: Date) =>
  table.versions.find((v) => isServed(v, now.getTime()))?.version ?? null;

/**
 * The version to move to: Herald's default while it is served and not about to end, else the
 * newest served one (the default this Herald was tested with is the safer step).
 */
export function recommendedApiVersion(table: ApiVersionTable, now: Date): string {
  const fallback = apiVersionStatus(table, table.defaultVersion, now);
  if (fallback.state === 'served') return table.defaultVersion;
  const served = table.versions.filter((v) => isServed(v, now.getTime()));
  return served[served.length - 1]?.version ?? table.defaultVersion;
}
