/**
 * Turns a lookup of many keys at once into a lookup of one key, so that the keys asked for by requests arriving
 * together go to the database in one query (docs/decisions/0123-coalesced-session-lookup.md).
 *
 * The keys asked for during one turn of the event loop's I/O phase are collected and looked up when that phase
 * ends (`setImmediate`, no timer): a lone request waits only for the end of the turn it arrived in, and under load
 * every request read from the sockets in one turn shares a query. A key asked for twice in one batch is looked up
 * once. When the lookup fails, every caller of that batch sees the failure, as each would have with a query of its
 * own.
 */
export function coalescedLookup<K, V>(
  lookupMany: (keys: K[]) => Promise<Map<K, V>>,
  maxKeys: number,
): (key: K) => Promise<V | undefined> {
  type Waiter = { resolve: (value: V | undefined) => void; reject: (error: unknown) => void };
  let open: Map<K, Waiter[]> | null = null;

  const run = async (batch: Map<K, Waiter[]>) => {
    try {
      const found = await lookupMany([...batch.keys()]);
      for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(key));
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    }
  };

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      if (open === null) {
        const batch = new Map<K, Waiter[]>();
        open = batch;
        setImmediate(() => {
          if (open === batch) open = null;
          void run(batch);
        });
      }
      const waiters = open.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else open.set(key, [{ resolve, reject }]);
      // A full batch still runs at the end of the turn; later keys start the next one.
      if (open.size >= maxKeys) open = null;
    });
}
