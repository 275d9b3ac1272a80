// A TCP relay in front of PostgreSQL that counts what the clients behind it ask for, read from
// the frontend protocol: statements executed (simple 'Q' queries and extended-protocol 'E'
// executes) and round trips (each 'Q' or 'S' sync waits for the server). Used to count the
// queries one API request costs; it adds latency, so throughput is never measured through it.
import { connect, createServer } from 'node:net';

const SSL_REQUEST = 80877103;

export async function startCountingProxy(targetHost, targetPort) {
  const counts = { statements: 0, roundTrips: 0 };
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    let buffered = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk) => {
      upstream.write(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (!started) {
          // Startup and SSLRequest messages have no type byte: int32 length, int32 code.
          if (buffered.length < 8) break;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) break;
          if (buffered.readInt32BE(4) !== SSL_REQUEST) started = true;
          buffered = buffered.subarray(length);
          continue;
        }
        if (buffered.length < 5) break;
        const type = String.fromCharCode(buffered[0]);
        const length = buffered.readInt32BE(1);
        if (buffered.length < 1 + length) break;
        if (type === 'Q' || type === 'E') counts.statements++;
        if (type === 'Q' || type === 'S') counts.roundTrips++;
        buffered = buffered.subarray(1 + length);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    counts,
    reset() {
      counts.statements = 0;
      counts.roundTrips = 0;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
