import { type DestinationStream, type Logger, pino } from 'pino';

/** Query parameters that carry secrets: invite tokens and reset links (spec §2). */
const SECRET_QUERY_PARAMETERS = new Set(['invite', 'reset_selector', 'reset_token']);

/**
 * A request URL as the log may show it: the values of secret query parameters become `[redacted]`, so a log
 * shipped elsewhere or read by others holds no usable invite or reset link (docs/decisions/0065-log-hygiene.md).
 */
export function redactedUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const parts = url
    .slice(start + 1)
    .split('&')
    .map((part) => {
      const name = part.split('=', 1)[0]!;
      return SECRET_QUERY_PARAMETERS.has(decodedName(name).toLowerCase()) ? `${name}=[redacted]` : part;
    });
  return `${url.slice(0, start)}?${parts.join('&')}`;
}

/** A parameter name as the web app's URLSearchParams reads it (`%69nvite` and `+` decoded); undecodable stays as is. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The request as each request log line shows it: Fastify's default fields, with the URL redacted. */
export function requestLogSerializer(request: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The server's logger (main.ts); tests pass a destination to read what it wrote. */
export function createServerLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, serializers: { req: requestLogSerializer } }, destination);
}
