import { timeZoneLabel } from '@/lib/time-zone';

/** The `<option>`s of a time-zone select: every zone of `zones`, named as people read them. */
export function TimeZoneOptions({ zones }: { zones: readonly string[] }) {
  return zones.map((zone) => (
    <option key={zone} value={zone}>
      {timeZoneLabel(zone)}
    </option>
  ));
}
