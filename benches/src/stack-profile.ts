import { Session } from 'node:inspector/promises';

/**
 * What each piece of the global request stack costs per request, from a CPU profile of the API process
 * taken in-process (V8's sampling profiler over the inspector) during a load. Each sample is charged to
 * the innermost frame of its stack that belongs to a piece (so jsonwebtoken called by passport is the JWT
 * guard's, JSON.parse called by our body parser the edge hooks'); samples with no such frame go to
 * "Node internals". Used by `CPU_PROF=1 npm run bench:api`.
 */

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The pieces, in the order the table prints them; each claims frames by their source (package or file). */
const PIECES: { piece: string; sources: RegExp }[] = [
  {
    piece: 'validation pipe (class-transformer, class-validator, input safety, UUID pipe)',
    sources:
      /\/(class-validator|class-transformer|validator|libphonenumber-js)\/|\/@nestjs\/common\/pipes\/|\/dist\/common\/(validation|input-safety|uuid\.pipe)\.js/,
  },
  {
    piece: 'JWT guard (passport, passport-jwt, jsonwebtoken, session cache) and roles guard',
    sources:
      /\/(@nestjs\/passport|passport|passport-jwt|passport-strategy|jsonwebtoken|jws|jwa|ecdsa-sig-formatter|safe-buffer|buffer-equal-constant-time|lodash\.[a-z]+|ms|semver)\/|\/dist\/modules\/auth\/(jwt\.strategy|session-cache|guards)\.js/,
  },
  { piece: 'helmet (security headers)', sources: /\/helmet\// },
  { piece: 'CORS', sources: /\/@fastify\/cors\// },
  {
    piece: 'edge hooks (request id in AsyncLocalStorage, access log, no-store, JSON body parser, Page)',
    sources: /\/dist\/http\/|\/dist\/common\/(request-context|logger|page-response)\.js|\/pino/,
  },
  { piece: 'exception filter', sources: /\/dist\/common\/error\.filter\.js/ },
  {
    piece: 'Nest core (routing, execution context, guard and pipe consumers)',
    sources: /\/(@nestjs\/core|@nestjs\/platform-fastify|@nestjs\/common|rxjs)\//,
  },
  {
    piece: 'Fastify (router, reply, serializer)',
    sources:
      /\/(fastify|find-my-way|@fastify\/[a-z-]+|fast-json-stringify|fast-querystring|toad-cache|avvio|safe-regex2|process-warning|abstract-logging|fast-decode-uri-component)\//,
  },
  { piece: 'database driver (pg, TypeORM)', sources: /\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|typeorm)\// },
  { piece: 'our handlers and the engine', sources: /\/dist\/modules\/|\/packages\/(engine|contracts)\/|\/dist\/common\// },
];
const GC = 'garbage collector';
const NODE = 'Node internals (HTTP parser, sockets, timers, promises)';

/** Starts V8's CPU profiler in this process; the returned function stops it and gives the profile. */
export async function startCpuProfile(intervalMicros = 100): Promise<() => Promise<Profile>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalMicros });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    session.disconnect();
    return profile;
  };
}

/** Sampled CPU µs per request by piece (idle left out), busiest first within the fixed order. */
export function stackTable(profile: Profile, requests: number): { piece: string; micros: number; share: number }[] {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const pieceOf = new Map<number, string | null>();
  const classify = (id: number): string | null => {
    if (pieceOf.has(id)) return pieceOf.get(id)!;
    const { functionName, url } = byId.get(id)!.callFrame;
    let piece: string | null = null;
    if (functionName === '(idle)') piece = 'idle';
    else if (functionName === '(garbage collector)') piece = GC;
    else if (url) piece = PIECES.find((p) => p.sources.test(url))?.piece ?? null;
    if (piece === null) {
      const up = parent.get(id);
      piece = up === undefined ? NODE : classify(up);
    }
    pieceOf.set(id, piece);
    return piece;
  };
  const micros = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const piece = classify(id)!;
    micros.set(piece, (micros.get(piece) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  micros.delete('idle');
  const busy = [...micros.values()].reduce((a, b) => a + b, 0);
  return [...PIECES.map((p) => p.piece), GC, NODE].map((piece) => ({
    piece,
    micros: (micros.get(piece) ?? 0) / requests,
    share: (micros.get(piece) ?? 0) / Math.max(1, busy),
  }));
}

/**
 * Within one piece: sampled µs per request by the frame that claimed the sample for the piece (its function and
 * file) and the frame the sample was in (its leaf, often a builtin such as JSON.parse), the largest first.
 */
export function pieceFrames(profile: Profile, piece: RegExp, requests: number, top = 12): { frame: string; micros: number }[] {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const name = (f: CallFrame) =>
    `${f.functionName || '(anonymous)'}${f.url ? ` ${f.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}` : ''}`;
  const micros = new Map<string, number>();
  profile.samples.forEach((leaf, i) => {
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const { callFrame } = byId.get(id)!;
      if (!callFrame.url || !PIECES.some((p) => p.sources.test(callFrame.url))) continue;
      if (piece.test(callFrame.url)) {
        const key = `${name(callFrame)} <- ${byId.get(leaf)!.callFrame.functionName || '(anonymous)'}`;
        micros.set(key, (micros.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
      }
      break;
    }
  });
  return [...micros]
    .map(([frame, m]) => ({ frame, micros: m / requests }))
    .sort((a, b) => b.micros - a.micros)
    .slice(0, top);
}

const DRIVER = PIECES.find((p) => p.piece.startsWith('database driver'))!.sources;

export function printStackTable(label: string, profile: Profile, requests: number): void {
  const rows = stackTable(profile, requests);
  const total = rows.reduce((a, r) => a + r.micros, 0);
  console.log(`CPU profile of the API's main thread, ${label}: ${total.toFixed(0)} µs sampled per request (profiler running)`);
  for (const r of rows) console.log(`  ${r.micros.toFixed(1).padStart(7)} µs  ${(100 * r.share).toFixed(1).padStart(5)} %  ${r.piece}`);
  console.log(`  the database driver's frames (claiming frame <- sampled frame):`);
  for (const f of pieceFrames(profile, DRIVER, requests)) console.log(`    ${f.micros.toFixed(1).padStart(7)} µs  ${f.frame}`);
}
