import net from 'node:net';

/**
 * A TCP proxy between Steady and PostgreSQL that a test can close and reopen, as a database restart or a network
 * failure would: `close()` destroys every open connection and refuses new ones, `hang()` accepts new connections
 * but never answers (a silent network), `stall()` keeps the open connections but drops what they send (a network
 * that went silent mid-query), `open()` forwards again.
 */
export interface TcpGate {
  /** host:port to connect to instead of the target. */
  port: number;
  /** How many connections it has accepted so far, in any state: the attempts to connect. */
  connections(): number;
  open(): void;
  close(): void;
  hang(): void;
  stall(): void;
  stop(): Promise<void>;
}

export async function startTcpGate(targetHost: string, targetPort: number): Promise<TcpGate> {
  let state: 'open' | 'closed' | 'hanging' | 'stalled' = 'open';
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    connections++;
    track(client);
    if (state === 'closed') return client.destroy();
    if (state === 'hanging' || state === 'stalled') return;
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    // Bytes are forwarded one chunk at a time so that a stalled gate can drop them.
    client.on('data', (chunk: Buffer) => state === 'open' && upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => state === 'open' && client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const destroyAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    open: () => {
      state = 'open';
    },
    close: () => {
      state = 'closed';
      destroyAll();
    },
    hang: () => {
      state = 'hanging';
      destroyAll();
    },
    stall: () => {
      state = 'stalled';
    },
    stop: async () => {
      destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
