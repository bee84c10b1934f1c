import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

/** Shared by the API benches: a JSON call that fails loudly, and a percentile of sorted latencies. */
export async function http(url: string, method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 2000)}`);
  return json;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

// One keep-alive agent for a load process: connections are reused as a browser's or an EHR's would be.
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

/**
 * A load generator's JSON call on node:http with keep-alive. The benches' load shares the two
 * cores with the API and PostgreSQL, and fetch (undici) spent twice node:http's CPU per call: with
 * it a bare node:http server answering one UPDATE managed 1,450 req/s, with this 3,070.
 */
export function loadCall(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: unknown }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null });
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * CPU time (user + system, µs) of every PostgreSQL process on this machine, from /proc (Linux;
 * undefined elsewhere), or with `postmaster`, of that server's processes only (the postmaster and its
 * children: another server on the machine, such as the shared one, is left out). Read before and after a
 * load, it says what the database spent on it, assuming nothing else used that server meanwhile.
 * Resolution: one clock tick (10 ms).
 */
export function postgresCpuMicros(postmaster?: number): number | undefined {
  let dirs: string[];
  try {
    dirs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const pid of dirs) {
    const stat = procStat(`/proc/${pid}/stat`);
    // The process ended between the listing and the read, or is not PostgreSQL.
    if (!stat || stat.comm !== 'postgres') continue;
    const { fields } = stat;
    // fields[1] is the parent's pid.
    if (postmaster !== undefined && Number(pid) !== postmaster && Number(fields[1]) !== postmaster) continue;
    // utime, stime (fields 14 and 15 of stat), and cutime, cstime (16, 17): a backend that has exited
    // is counted in the postmaster's children's time once reaped, so the sum never goes backwards.
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}
/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The pid of the postmaster serving `backendPid` (its parent), from /proc; undefined when it cannot be read, or when
 * that pid here is no PostgreSQL backend (a server on another machine: its pids mean nothing here).
 */
export function postmasterOf(backendPid: number): number | undefined {
  const stat = procStat(`/proc/${backendPid}/stat`);
  return stat?.comm === 'postgres' ? Number(stat.fields[1]) : undefined;
}

/**
 * A /proc stat file read: the command name, and the fields after it (`fields[0]` is the state, `fields[11]` and
 * `fields[12]` utime and stime in clock ticks). comm may hold spaces, so the fields start after its closing parenthesis.
 * undefined when the file cannot be read (the process or thread has ended, or this is not Linux).
 */
function procStat(path: string): { comm: string; fields: string[] } | undefined {
  let stat: string;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const close = stat.lastIndexOf(')');
  return { comm: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
}

/** CPU µs by thread of this process: the main thread, V8's platform workers (GC, compilers), libuv's pool (WebCrypto's jobs, zlib, dns). */
export interface ThreadCpu {
  main: number;
  v8: number;
  libuv: number;
}

/** This process's CPU by thread kind, from /proc/self/task (Linux); undefined where it cannot be read. */
export function threadCpuMicros(): ThreadCpu | undefined {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  const out: ThreadCpu = { main: 0, v8: 0, libuv: 0 };
  for (const tid of tids) {
    const stat = procStat(`/proc/self/task/${tid}/stat`);
    if (!stat) continue; // the thread ended meanwhile
    const micros = ((Number(stat.fields[11]) + Number(stat.fields[12])) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
    if (Number(tid) === process.pid) out.main += micros;
    else if (stat.comm.startsWith('libuv')) out.libuv += micros;
    else out.v8 += micros;
  }
  return out;
}
