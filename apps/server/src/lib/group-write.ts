/**
 * Writes items in groups ("group commit"): while one write is in flight, new items wait, and the
 * next write takes everything that arrived meanwhile (up to `maxGroup`). Idle, an item is written
 * at once, alone; under load, one statement carries many items, so the cost per item (round trip,
 * statement, commit) shrinks as the load grows. (Several writes in flight were measured: smaller
 * groups, more statements, a lower rate on a busy machine.) Each `add` settles when its own item
 * is written.
 *
 * A group whose write fails is written again one item at a time, so one item the database refuses
 * fails only its own `add`.
 */
export class GroupWriter<T> {
  private waiting: Array<{ item: T; resolve: () => void; reject: (err: unknown) => void }> = [];
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxGroup = 500,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain() {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const group = this.waiting.splice(0, this.maxGroup);
        try {
          await this.write(group.map((w) => w.item));
          for (const w of group) w.resolve();
        } catch (err) {
          if (group.length === 1) {
            group[0]!.reject(err);
            continue;
          }
          for (const w of group) {
            try {
              await this.write([w.item]);
              w.resolve();
            } catch (alone) {
              w.reject(alone);
            }
          }
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
