// autocannon ships no types; this covers the part of its programmatic API the benchmark uses.
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (request: object, context: Record<string, unknown>) => object;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** A fixed count of requests instead of a duration. */
    amount?: number;
    /** Seconds before a request counts as timed out (10). */
    timeout?: number;
    headers?: Record<string, string>;
    /** Requests per second over all connections. */
    overallRate?: number;
    requests?: Request[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    errors: number;
    timeouts: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
