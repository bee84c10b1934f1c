import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';

/** A process's CPU time (user + system, µs) and memory: an API process's, or this bare server's. */
export interface ProcessStats {
  cpuMicros: number;
  /** Of cpuMicros, the kernel's (system time): socket writes and reads, the loopback TCP path. */
  systemMicros: number;
  /** Times the scheduler took the CPU from the process while it could run (another process woke: PostgreSQL). */
  involuntarySwitches: number;
  voluntarySwitches: number;
  rss: number;
  maxRss: number;
}
/** This process's figures so far. */
export function processStats(): ProcessStats {
  const cpu = process.cpuUsage();
  const usage = process.resourceUsage();
  return {
    cpuMicros: cpu.user + cpu.system,
    systemMicros: cpu.system,
    involuntarySwitches: usage.involuntaryContextSwitches,
    voluntarySwitches: usage.voluntaryContextSwitches,
    rss: process.memoryUsage().rss,
    maxRss: usage.maxRSS * 1024,
  };
}

/**
 * What any Node.js API could reach on this machine: a bare node:http server that answers each
 * request with the one UPDATE an answer costs (pg, a pool of 10, as the API's), with no framework,
 * no sign-in check, no validation and no engine. Run under the same load child as the API, it
 * separates what our stack costs from what Node, HTTP on loopback and the load generator cost.
 * Runs in a child process of bench:api; sends its URL, and its CPU time when asked.
 */
export async function serveBareCeiling(databaseUrl: string, table: string, rows: number) {
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const answer = JSON.parse(body || '{}') as { value?: unknown };
      const id = 1 + Math.floor(Math.random() * rows);
      pool
        .query(`UPDATE ${table} SET n = n + 1 WHERE id = $1 RETURNING n`, [id])
        .then(({ rows: [row] }) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id, n: row?.n, value: answer.value ?? null }));
        })
        .catch((e: Error) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: e.message }));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  process.on('message', (m) => {
    if (m === 'stats') {
      process.send!(processStats());
    } else void pool.end().then(() => process.exit(0));
  });
}
