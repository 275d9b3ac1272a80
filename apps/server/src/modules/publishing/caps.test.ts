import { describe, expect, it } from 'vitest';
import { Semaphores } from './caps.js';

describe('Semaphores (the caps within one process)', () => {
  it('lets a stopping waiter go without a slot, and passes the slot to the next waiter', async () => {
    const slots = new Semaphores();
    const held = (await slots.acquire('network:x', 1))!;
    const stop = new AbortController();
    const stopping = slots.acquire('network:x', 1, stop.signal);
    const next = slots.acquire('network:x', 1);
    stop.abort();
    expect(await stopping).toBeNull();

    held();
    const taken = await next;
    expect(taken).toBeTypeOf('function');
    // One holder at a time still: a third waits until the second gives its slot back.
    let third = false;
    const after = slots.acquire('network:x', 1).then((release) => {
      third = true;
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(third).toBe(false);
    taken!();
    expect(await after).toBeTypeOf('function');
  });

  it('answers null at once when the process is already stopping and no slot is free', async () => {
    const slots = new Semaphores();
    await slots.acquire('account:a', 1);
    expect(await slots.acquire('account:a', 1, AbortSignal.abort())).toBeNull();
  });
});
