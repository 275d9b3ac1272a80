import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 in front of a server (PostgreSQL, in the fault tests), which a test
 * can cut: `down()` drops every open connection and refuses new ones until `up()`, as a network
 * outage or a stopped server would.
 */
export interface TcpProxy {
  port: number;
  /** Drops every connection and refuses new ones. */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    down() {
      refusing = true;
      for (const socket of open) socket.destroy();
    },
    up() {
      refusing = false;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
