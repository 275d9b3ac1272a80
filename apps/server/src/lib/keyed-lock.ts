/**
 * Runs steps one at a time per key, in the order they asked, within one process: the sandbox's
 * read-modify-write steps on its store (an account's timeline, a media upload…), and token
 * refreshes of one connected account (which also take a database lock for other processes).
 */
export function createKeyedLock() {
  const tails = new Map<string, Promise<unknown>>();
  return async function withLock<T>(key: string, step: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const current = previous.then(step, step);
    const tail = current.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await current;
    } finally {
      // The last holder of a key forgets it, so the map does not grow with every key ever used.
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

export type KeyedLock = ReturnType<typeof createKeyedLock>;
