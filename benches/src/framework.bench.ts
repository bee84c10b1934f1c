/**
 * npm run bench:framework — what the HTTP framework alone costs per request, to decide issue 13's
 * "consider @nestjs/platform-fastify". Three servers, each in its own child process, answer the
 * same authenticated no-op (verify an HS256 bearer token with passport-jwt, return a small JSON
 * body) under the same load from a fourth process:
 *   - bare: node:http and jsonwebtoken, no framework (the baseline the ratios are against);
 *   - nest-express: Nest on Express with the app's global stack (helmet, CORS, JSON body parser,
 *     ValidationPipe, an AuthGuard('jwt'));
 *   - nest-fastify: the same Nest module on @nestjs/platform-fastify (helmet as Fastify hooks).
 * No database: the figure is the framework's CPU per request, which the API pays on every call.
 * Prints req/s, latency and each server's CPU per request, with ratios against bare.
 */
import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { createSecretKey, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { Controller, Get, Injectable, Module, Req, UseGuards, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import helmet from 'helmet';
import jwt from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { loadCall, percentile } from './bench-http';

const CLIENTS = Number(process.env.CLIENTS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_MS = 2000;
const SECRET = process.env.BENCH_SECRET ?? randomBytes(32).toString('hex');
type Kind = 'bare' | 'nest-express' | 'nest-fastify';

@Injectable()
class BenchJwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor() {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // As the API's strategy: a KeyObject, so jsonwebtoken does not re-parse the secret per call.
      secretOrKey: createSecretKey(Buffer.from(SECRET)) as unknown as string,
      algorithms: ['HS256'],
    });
  }
  validate(payload: { sub: string }) {
    return { id: payload.sub };
  }
}

@Controller('api')
class NoopController {
  @Get('noop')
  @UseGuards(AuthGuard('jwt'))
  noop(@Req() req: { user: { id: string } }) {
    return { id: req.user.id, ok: true };
  }
}

@Module({ imports: [PassportModule], controllers: [NoopController], providers: [BenchJwtStrategy] })
class NoopModule {}

async function serve(kind: Kind): Promise<number> {
  if (kind === 'bare') {
    const key = createSecretKey(Buffer.from(SECRET));
    const server = createServer((req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      let body: string;
      try {
        const payload = jwt.verify(token ?? '', key, { algorithms: ['HS256'] }) as { sub: string };
        body = JSON.stringify({ id: payload.sub, ok: true });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      } catch {
        body = JSON.stringify({ code: 'unauthorized' });
        res.writeHead(401, { 'content-type': 'application/json; charset=utf-8' });
      }
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as { port: number }).port;
  }
  const adapter = kind === 'nest-express' ? new ExpressAdapter() : new FastifyAdapter();
  const app = await NestFactory.create(NoopModule, adapter, { logger: false });
  if (kind === 'nest-express') {
    app.use(helmet());
  } else {
    // helmet is Connect middleware; Fastify runs it through its own middie layer.
    app.use(helmet() as never);
  }
  app.enableCors({ origin: false });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  await app.listen(0, '127.0.0.1');
  return (app.getHttpServer().address() as { port: number }).port;
}

function cpuMicros() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

interface Line {
  kind: Kind;
  perSecond: number;
  p50: number;
  p99: number;
  cpuPerRequestMs: number;
}

async function server(kind: Kind): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(__filename, [], { env: { ...process.env, BENCH_SECRET: SECRET, BENCH_SERVE: kind } });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { child, port };
}

function ask<T>(child: ChildProcess, message: unknown): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m: T) => resolve(m));
    child.send(message as never);
  });
}

async function measure(kind: Kind, token: string): Promise<Line> {
  const { child, port } = await server(kind);
  try {
    const load = fork(__filename, [], { env: { ...process.env, BENCH_LOAD: '1' } });
    const before = await ask<number>(child, 'cpu');
    const result = await ask<{ latencies: number[]; requests: number; errors: string[] }>(load, {
      url: `http://127.0.0.1:${port}`,
      token,
    });
    const after = await ask<number>(child, 'cpu');
    load.kill();
    if (result.errors.length) throw new Error(`${kind}: ${result.errors.slice(0, 3).join('; ')}`);
    const sorted = result.latencies.sort((a, b) => a - b);
    return {
      kind,
      perSecond: sorted.length / SECONDS,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      cpuPerRequestMs: (after - before) / 1000 / result.requests,
    };
  } finally {
    child.kill();
  }
}

async function runLoad({ url, token }: { url: string; token: string }) {
  const latencies: number[] = [];
  const errors: string[] = [];
  let requests = 0;
  const start = Date.now();
  const measureFrom = start + WARMUP_MS;
  const end = measureFrom + SECONDS * 1000;
  const headers = { authorization: `Bearer ${token}` };
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        const res = await loadCall(url, 'GET', '/api/noop', headers);
        requests++;
        if (res.status !== 200 && errors.length < 10) errors.push(`${res.status} ${JSON.stringify(res.json)}`);
        if (Date.now() >= measureFrom && Date.now() < end) latencies.push(performance.now() - t0);
      }
    }),
  );
  process.send!({ latencies, requests, errors });
}

async function main() {
  const loadBefore = loadavg();
  const token = jwt.sign({ sub: 'bench-user' }, createSecretKey(Buffer.from(SECRET)), { algorithm: 'HS256', expiresIn: '1h' });
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), node ${process.version}`);
  console.log(`${CLIENTS} clients, ${SECONDS} s measured after ${WARMUP_MS / 1000} s warm-up; authenticated no-op, no database`);
  const lines: Line[] = [];
  for (const kind of ['bare', 'nest-express', 'nest-fastify'] as const) lines.push(await measure(kind, token));
  const bare = lines[0];
  for (const l of lines) {
    console.log(
      `${l.kind.padEnd(13)} ${l.perSecond.toFixed(0).padStart(6)} req/s  p50 ${l.p50.toFixed(1)} ms  p99 ${l.p99.toFixed(1)} ms  ` +
        `CPU ${l.cpuPerRequestMs.toFixed(3)} ms/req  (÷ bare: rate ${(l.perSecond / bare.perSecond).toFixed(2)}, CPU ${(l.cpuPerRequestMs / bare.cpuPerRequestMs).toFixed(2)}×)`,
    );
  }
  const [, express, fastify] = lines;
  console.log(
    `nest-fastify / nest-express: rate ${(fastify.perSecond / express.perSecond).toFixed(2)}, CPU ${(fastify.cpuPerRequestMs / express.cpuPerRequestMs).toFixed(2)}×`,
  );
  console.log(
    `load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')}; after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}

if (process.env.BENCH_LOAD) {
  process.once('message', (m: { url: string; token: string }) => void runLoad(m));
} else if (process.env.BENCH_SERVE) {
  void serve(process.env.BENCH_SERVE as Kind).then((port) => {
    process.send!({ port });
    process.on('message', (m) => {
      if (m === 'cpu') process.send!(cpuMicros());
    });
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
