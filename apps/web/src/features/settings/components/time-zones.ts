/**
 * The IANA time zones this browser knows, or null when it cannot list them (older engines lack
 * `Intl.supportedValuesOf`). Engines leave out the "UTC" alias, which many people pick.
 */
export function loadTimeZones(): string[] | null {
  try {
    if (typeof Intl.supportedValuesOf !== 'function') return null;
    const zones = Intl.supportedValuesOf('timeZone');
    if (zones.length === 0) return null;
    return zones.includes('UTC') ? zones : ['UTC', ...zones];
  } catch {
    return null;
  }
}

/** The list to offer: `zones`, plus the saved zone when the list lacks it (so it stays shown). */
export function timeZoneOptions(zones: readonly string[] | null, saved: string): string[] {
  const list = zones ?? [];
  return saved && !list.includes(saved) ? [saved, ...list] : [...list];
}
