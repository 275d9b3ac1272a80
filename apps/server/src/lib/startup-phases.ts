/**
 * Where a start's time goes: each `mark` records the milliseconds since the previous one, the
 * first since the process began (`modules`: Node itself and loading the bundle's imports). The
 * "running" log line carries them, so a slow start says which phase was slow.
 */
export class StartupPhases {
  readonly phases: Record<string, number> = {};
  private last: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.last = now();
    this.phases.modules = Math.round(this.last);
  }

  /** Ends the phase called `name` (added to it if it was marked before). */
  mark(name: string) {
    const at = this.now();
    this.phases[name] = (this.phases[name] ?? 0) + Math.round(at - this.last);
    this.last = at;
  }

  /** Milliseconds from the process's start to now. */
  total() {
    return Math.round(this.now());
  }
}
