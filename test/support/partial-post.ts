import http from 'node:http';

/** A JSON POST whose headers and first half of the body are on the way: a request in flight. */
export interface PartialPost {
  /** Sends the rest of the body. */
  finish(): void;
  /** Ends the connection with the body half sent, as a client that went away. */
  abort(): void;
  response: Promise<{ status: number; body: string }>;
}

/** Starts a POST of `payload` to 127.0.0.1:`port` on a connection of its own and sends half of the body. */
export function startPartialPost(
  port: number,
  path: string,
  headers: Record<string, string>,
  payload: string,
): PartialPost {
  const request = http.request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    agent: false,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
  const half = Math.floor(payload.length / 2);
  request.write(payload.slice(0, half));
  return { finish: () => request.end(payload.slice(half)), abort: () => request.destroy(), response };
}
