import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Requests forwarded to each upstream, in the order given. */
  served: number[];
  close(): Promise<void>;
}

/**
 * A load balancer for tests: each HTTP request goes to the next upstream in turn (per request,
 * not per connection, so one keep-alive client still reaches every process). It adds
 * X-Forwarded-For as nginx does; the API trusts it from loopback.
 */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const targets = upstreams.map((u) => new URL(u));
  const served = targets.map(() => 0);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const server: Server = createServer((req, res) => {
    const i = next++ % targets.length;
    served[i] += 1;
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = request(
      {
        agent,
        host: targets[i].hostname,
        port: targets[i].port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': forwardedFor },
      },
      (up) => {
        // Hop-by-hop headers are the upstream connection's, not the client's: forwarded, the API's
        // "Keep-Alive: timeout=65" told the client to reuse sockets this server had already closed.
        const { connection: _c, 'keep-alive': _k, ...headers } = up.headers;
        res.writeHead(up.statusCode ?? 502, headers);
        up.pipe(res);
      },
    );
    // Say why in the api.md error shape, so a failing test names the cause instead of failing to parse an empty body.
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (res.headersSent) return res.end();
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 502, code: 'proxy_upstream_error', message: `${err.code ?? ''} ${err.message}`.trim() }));
    });
    req.pipe(upstream);
  });
  // As a real load balancer (nginx: 75 s): idle client connections outlive a test's pauses.
  server.keepAliveTimeout = 75_000;
  server.headersTimeout = 76_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
