import { describe, expect, it } from 'vitest';
import { GroupWriter } from './group-write.js';

describe('GroupWriter', () => {
  it('writes an item alone when idle, and what arrives during a write as one group', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const writer = new GroupWriter<number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await new Promise<void>((r) => (release = r));
    });
    const first = writer.add(1);
    const rest = [2, 3, 4].map((n) => writer.add(n));
    expect(writes).toEqual([[1]]);
    release();
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps groups under the limit', async () => {
    const writes: number[][] = [];
    const writer = new GroupWriter<number>(async (items) => {
      writes.push(items);
      await Promise.resolve();
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => writer.add(n)));
    expect(writes).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('fails only the item the write refuses, the others of its group are written', async () => {
    const written: number[] = [];
    let release!: () => void;
    let calls = 0;
    const writer = new GroupWriter<number>(async (items) => {
      calls++;
      if (calls === 1) await new Promise<void>((r) => (release = r));
      if (items.includes(13)) throw new Error('refused 13');
      written.push(...items);
    });
    const first = writer.add(1);
    const results = Promise.allSettled([12, 13, 14].map((n) => writer.add(n)));
    release();
    await first;
    const settled = await results;
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toEqual(new Error('refused 13'));
    expect(written).toEqual([1, 12, 14]);
  });
});
