import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../backend/src/database/embedded';

/**
 * Hands each test suite its own in-memory embedded PostgreSQL when no DATABASE_URL is set.
 *
 * It runs in Jest's global setup, outside the test sandbox: loading PGlite (ESM that imports
 * Node built-ins dynamically) from inside a suite's VM context failed now and then in long
 * runs ("import after the environment was torn down", then jest-runtime "reading 'identifier'").
 * Here it is loaded once, natively, and suites reach their database over a socket, exactly as
 * they reach a real server in CI.
 */
export const BROKER_ENV = 'CDS_TEST_EMBEDDED_POSTGRES';

// The app's pool (10) plus a test's own clients and the worker's.
const CONNECTIONS_PER_DATABASE = 40;

export interface Broker {
  url: string;
  close(): Promise<void>;
}

export async function startBroker(): Promise<Broker> {
  const databases = new Map<string, EmbeddedDatabase>();
  let next = 0;
  const server: Server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      // No keep-alive: with parallel Jest workers, a worker's fetch reused a socket the server was
      // closing after its idle timeout and failed with ECONNRESET.
      res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify(body));
    };
    void (async () => {
      if (req.method === 'POST' && req.url === '/databases') {
        const id = String(++next);
        const db = await startEmbeddedPostgres(undefined, CONNECTIONS_PER_DATABASE);
        databases.set(id, db);
        return reply(201, { id, url: db.url });
      }
      const match = /^\/databases\/(\d+)$/.exec(req.url ?? '');
      if (req.method === 'DELETE' && match) {
        const db = databases.get(match[1]);
        databases.delete(match[1]);
        await db?.close();
        return reply(204, null);
      }
      reply(404, { error: 'not_found' });
    })().catch((e: unknown) => reply(500, { error: String(e) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...databases.values()].map((db) => db.close().catch(() => undefined)));
      databases.clear();
    },
  };
}

/** A fresh in-memory database from the broker, for one suite. */
export async function createEmbeddedTestDatabase(brokerUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const res = await fetch(`${brokerUrl}/databases`, { method: 'POST' });
  if (res.status !== 201) throw new Error(`embedded PostgreSQL broker: ${res.status} ${await res.text()}`);
  const { id, url } = (await res.json()) as { id: string; url: string };
  return {
    url,
    async drop() {
      await fetch(`${brokerUrl}/databases/${id}`, { method: 'DELETE' });
    },
  };
}
