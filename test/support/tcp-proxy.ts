import { createConnection, createServer, type NetConnectOpts, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis) that a test can cut and restore,
 * to take a dependency down for real without touching the shared server.
 */
export interface TcpProxy {
  port: number;
  /** Refuses new connections and cuts every open one. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /**
   * Keeps every connection open but passes nothing either way, and accepts new ones that get no answer:
   * what a client sees of a server that hangs (SIGSTOP, a full disk, a network dropping packets).
   */
  freeze(): void;
  /** Passes again what was held back. */
  thaw(): void;
  close(): Promise<void>;
}

/** Where a postgres:// URL points: a TCP address, or a Unix socket (the embedded database's `?host=/dir`). */
export function postgresTarget(url: string): NetConnectOpts {
  const u = new URL(url);
  const port = Number(u.port || 5432);
  const socketDir = u.searchParams.get('host') ?? (u.hostname.startsWith('%2F') ? decodeURIComponent(u.hostname) : '');
  return socketDir.startsWith('/') ? { path: join(socketDir, `.s.PGSQL.${port}`) } : { host: u.hostname, port };
}

/** The same database reached through a proxy on 127.0.0.1:`port`. */
export function postgresUrlVia(url: string, port: number): string {
  const u = new URL(url);
  u.searchParams.delete('host');
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}

export async function startTcpProxy(targetHost: string | NetConnectOpts, targetPort?: number): Promise<TcpProxy> {
  const target: NetConnectOpts = typeof targetHost === 'string' ? { host: targetHost, port: targetPort! } : targetHost;
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let frozen = false;
  const link = ([client, upstream]: [Socket, Socket]) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const hold = ([client, upstream]: [Socket, Socket]) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  let server: Server | undefined;
  let port = 0;
  // Idempotent: a second restore() must not leave the first server listening (it kept Jest from exiting).
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve();
      server = createServer((client) => {
        const upstream = createConnection(target);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        const pair: [Socket, Socket] = [client, upstream];
        pairs.add(pair);
        if (frozen) hold(pair);
        else link(pair);
        client.on('close', () => {
          pairs.delete(pair);
          upstream.destroy();
        });
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const cut = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    cut,
    restore: listen,
    freeze() {
      frozen = true;
      pairs.forEach(hold);
    },
    thaw() {
      frozen = false;
      pairs.forEach(link);
    },
    close: cut,
  };
}
