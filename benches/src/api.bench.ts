/**
 * npm run bench:api — clinical assessments through the whole API against real PostgreSQL:
 * CLIENTS concurrent clients each start an assessment and answer it to the end, again and
 * again. Compared with the database-bound limit measured on the same database: pgbench, same
 * client count, one SELECT plus one UPDATE per transaction on a scratch table.
 *
 * DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres); the
 * bench works in a scratch database it creates there and drops afterwards. API_PROCESSES
 * (default 1) API processes share the load, as stateless API processes behind a balancer
 * would; the load runs in a child process of its own, off the API's event loop and out of its
 * CPU and memory figures. For context it also measures an authenticated request that does no
 * work (GET /api/auth/user). Per API process it reports CPU time per request (the figure least
 * disturbed by other work on a shared machine) and resident memory under load; for the database, the
 * CPU time of every postgres process per request (from /proc) and, after the answers, the assessments
 * table's row sizes and share of HOT updates. The API logs nothing unless BENCH_LOG_LEVEL says so
 * (info: one line per request, as in production).
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '@cds/backend/dist/config/app-config';
import { http, loadCall, percentile, postgresCpuMicros, postmasterOf } from './bench-http';
import { useProcessLogOutput } from '@cds/backend/dist/common/logger';
import { API_NODE_FLAGS } from '@cds/backend/dist/node-flags';
import { startRuntime, type Runtime } from '@cds/backend/dist/runtime';
import { processStats, serveBareCeiling, type ProcessStats } from './bare-ceiling';
import { scratchDatabase } from './bench-scratch';
import { printStackTable, startCpuProfile } from './stack-profile';

const CLIENTS = Number(process.env.CLIENTS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const API_PROCESSES = Number(process.env.API_PROCESSES ?? 1);
const WARMUP_SECONDS = 2;
/**
 * An unmeasured pass of each scenario first (its figures printed apart as the cold ones): a process serving a clinic runs
 * for days, and for its first 7-10 s V8 is still optimising the request path (about 40 % more CPU per answer).
 * WARM_SECONDS=0 measures the cold process, as this bench did before.
 */
const WARM_SECONDS = Number(process.env.WARM_SECONDS ?? 10);
const USERS = 20;
const PGBENCH_ROWS = 100_000;
/** The scratch database's server: only its processes count as PostgreSQL's CPU (set in main). */
let postmaster: number | undefined;

type Scenario = 'assessments' | 'noop' | 'bare';
interface LoadInput {
  urls: string[];
  tokens: string[];
  clients: number;
  warmupMs: number;
  measureMs: number;
  scenario: Scenario;
}
interface LoadResult {
  latencies: number[];
  /** Every request, warm-up included: the denominator of CPU per request. */
  requests: number;
  assessments: number;
  errors: string[];
}
interface Question {
  parameter_id: string;
  options: { value: unknown }[];
}

/**
 * The load thread. 'assessments': each client starts an assessment and answers until it
 * completes. 'noop': each client reads its user. Only requests inside the measured window count.
 */
async function load({ urls, tokens, clients, warmupMs, measureMs, scenario }: LoadInput): Promise<LoadResult> {
  const from = performance.now() + warmupMs;
  const until = from + measureMs;
  const latencies: number[] = [];
  const errors: string[] = [];
  let assessments = 0;
  let requests = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const url = urls[c % urls.length];
      const headers = { authorization: `Bearer ${tokens[c % tokens.length]}`, 'content-type': 'application/json' };
      const call = async <T>(method: string, path: string, body?: unknown): Promise<T | null> => {
        const t0 = performance.now();
        const res = await loadCall(url, method, path, headers, body === undefined ? undefined : JSON.stringify(body));
        const json = res.json as T;
        const t1 = performance.now();
        requests += 1;
        if (res.status >= 300) errors.push(`${path} ${res.status} ${JSON.stringify(json)}`);
        else if (t0 >= from && t1 <= until) latencies.push(t1 - t0);
        return res.status < 300 ? json : null;
      };
      let turn = c;
      while (performance.now() < until && errors.length < 10) {
        if (scenario === 'noop') {
          await call('GET', '/api/auth/user');
          continue;
        }
        if (scenario === 'bare') {
          await call('POST', '/answer', { parameter_id: 'TSH', value: 5.5 });
          continue;
        }
        let a = await call<{ id: string; current_question: Question | null }>('POST', '/api/assessments', { mode: 'clinical' });
        while (a?.current_question && performance.now() < until) {
          const { parameter_id, options } = a.current_question;
          a = await call('POST', `/api/assessments/${a.id}/answers`, { parameter_id, value: options[turn++ % options.length].value });
        }
        if (a && !a.current_question && performance.now() <= until) assessments += 1;
      }
    }),
  );
  return { latencies, requests, assessments, errors };
}

/** A small thyroid knowledge base: every assessment asks two or three questions. */
async function seed(url: string) {
  const signUp = (email: string) => http(url, 'POST', '/api/auth/signup', null, { email, password: 'correct horse battery staple' });
  const admin = (await signUp('bench.admin@clinic.test')).access_token as string; // the first account is the super_admin
  const parameter = (body: object) => http(url, 'POST', '/api/parameters', admin, { category: 'labs', ...body });
  const tsh = await parameter({ name: 'TSH', display_name: 'TSH', data_type: 'number', units: 'mIU/L' });
  const antibodies = await parameter({ name: 'Antibodies', display_name: 'Thyroid antibodies', data_type: 'boolean' });
  const weight = await parameter({ name: 'Wt_lb', display_name: 'Weight', data_type: 'number', units: 'lb', category: 'vitals' });
  const set = await http(url, 'POST', '/api/rule-sets', admin, { name: 'Thyroid and weight' });
  const rule = (name: string, conditions: object[], message: string) =>
    http(url, 'POST', '/api/rules', admin, {
      rule_set_id: set.id,
      name,
      conditions,
      actions: [{ type: 'recommendation', severity: 'medium', message }],
    });
  await rule(
    "Hashimoto's thyroiditis",
    [
      { parameter: tsh.id, operator: '>', value: 4.5 },
      { parameter: antibodies.id, operator: 'equals', value: true },
    ],
    'Refer to endocrinology',
  );
  await rule('Subclinical hypothyroidism', [{ parameter: tsh.id, operator: '>', value: 4.5 }], 'Recheck TSH in 6 weeks');
  await rule('Weight management', [{ parameter: weight.id, operator: '>', value: 250 }], 'Refer to a dietitian');
  const preview = (await http(url, 'POST', `/api/rule-sets/${set.id}/impact-preview`, admin)) as { id: string };
  await http(url, 'POST', `/api/rule-sets/${set.id}/publish`, admin, { impact_preview_id: preview.id });
  const tokens: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const session = await signUp(`bench.pcp${i}@clinic.test`);
    await http(url, 'PUT', `/api/users/${session.user.id}/role`, admin, { role: 'pcp' });
    tokens.push(session.access_token);
  }
  return tokens;
}

function statsOf(child: ChildProcess): Promise<ProcessStats> {
  return new Promise((resolve) => {
    child.once('message', (m: ProcessStats) => resolve(m));
    child.send('stats');
  });
}

/** The load, in a child process; with each API process's CPU time over it and its memory at its end. */
async function runLoad(
  input: Omit<LoadInput, 'warmupMs' | 'measureMs' | 'clients'>,
  children: ChildProcess[],
  seconds = SECONDS,
): Promise<LoadResult & { stats: ProcessStats[]; postgresMicros?: number }> {
  const data: LoadInput = { ...input, clients: CLIENTS, warmupMs: WARMUP_SECONDS * 1000, measureMs: seconds * 1000 };
  const statsAll = async () => [processStats(), ...(await Promise.all(children.map(statsOf)))];
  const before = await statsAll();
  const postgresBefore = postgresCpuMicros(postmaster);
  const child = fork(__filename, [], { env: { ...process.env, BENCH_LOAD: '1' } });
  const result = await new Promise<LoadResult>((resolve, reject) => {
    child.once('message', (r: LoadResult) => (r.errors.length ? reject(new Error(`API errors:\n${r.errors.join('\n')}`)) : resolve(r)));
    child.once('error', reject);
    child.send(data);
  });
  const after = await statsAll();
  const postgresAfter = postgresCpuMicros(postmaster);
  child.kill();
  return {
    ...result,
    stats: after.map((s, i) => ({
      ...s,
      cpuMicros: s.cpuMicros - before[i].cpuMicros,
      systemMicros: s.systemMicros - before[i].systemMicros,
      involuntarySwitches: s.involuntarySwitches - before[i].involuntarySwitches,
      voluntarySwitches: s.voluntarySwitches - before[i].voluntarySwitches,
    })),
    ...(postgresBefore !== undefined && postgresAfter !== undefined ? { postgresMicros: postgresAfter - postgresBefore } : {}),
  };
}

/** One more API process on the same database and secret (or the bare ceiling server); resolves with its URL. */
function apiProcess(
  env: NodeJS.ProcessEnv,
  role: 'BENCH_API_PROCESS' | 'BENCH_BARE' = 'BENCH_API_PROCESS',
): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(__filename, [], { env: { ...env, [role]: '1' }, execArgv: [...process.execArgv, ...API_NODE_FLAGS] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve({ url: m.url, child }));
    child.once('exit', (code) => reject(new Error(`API process exited with ${code}`)));
  });
}

async function serveApi() {
  useProcessLogOutput(); // as npm start: asynchronous log lines
  const runtime = await startRuntime(loadConfig(process.env));
  process.send!({ url: runtime.url });
  process.on('message', (m) => {
    if (m === 'stats') process.send!(processStats());
    else void runtime.close().then(() => process.exit(0));
  });
}

/** One statement's figures over a load, from pg_stat_statements. */
interface StatementStats {
  query: string;
  calls: number;
  ms: number;
  rows: number;
  dirtied: number;
  wal_bytes: number;
}

/**
 * Whether the server collects pg_stat_statements (it must be in shared_preload_libraries): then the bench
 * resets it before the answer load and prints, per request, the statements PostgreSQL ran and where its
 * time went.
 */
async function statementsAvailable(admin: Client): Promise<boolean> {
  try {
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await admin.query('SELECT pg_stat_statements_reset()');
    return true;
  } catch {
    return false;
  }
}

async function statementStats(admin: Client, database: string): Promise<StatementStats[]> {
  const { rows } = await admin.query(
    `SELECT query, calls::int, total_exec_time AS ms, rows::int, shared_blks_dirtied::int AS dirtied, wal_bytes::bigint AS wal_bytes
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1) ORDER BY total_exec_time DESC`,
    [database],
  );
  return (rows as StatementStats[]).map((r) => ({ ...r, ms: Number(r.ms), wal_bytes: Number(r.wal_bytes) }));
}

function printStatements(label: string, stats: StatementStats[], requests: number) {
  const sum = (f: (s: StatementStats) => number) => stats.reduce((n, s) => n + f(s), 0);
  console.log(
    `pg_stat_statements, ${label}: ${(sum((s) => s.calls) / requests).toFixed(2)} statements per request, ${((1000 * sum((s) => s.ms)) / requests).toFixed(0)} µs executing, ` +
      `${(sum((s) => s.wal_bytes) / requests).toFixed(0)} WAL bytes, ${(sum((s) => s.dirtied) / requests).toFixed(2)} buffers dirtied; the statements:`,
  );
  for (const s of stats.slice(0, 8)) {
    console.log(
      `  ${(s.calls / requests).toFixed(3)}/req  ${((1000 * s.ms) / Math.max(1, s.calls)).toFixed(0)} µs each  ${(s.rows / Math.max(1, s.calls)).toFixed(2)} rows  ` +
        `${(s.wal_bytes / Math.max(1, s.calls)).toFixed(0)} WAL B  ${s.query.replace(/\s+/g, ' ').slice(0, 110)}`,
    );
  }
}

/** pgbench on the same database: one SELECT and one UPDATE of a random row per transaction. */
function pgbench(url: URL, clients: number, seconds: number) {
  const dir = mkdtempSync(join(tmpdir(), 'cds-pgbench-'));
  try {
    const script = join(dir, 'select-update.sql');
    writeFileSync(
      script,
      [
        `\\set id random(1, ${PGBENCH_ROWS})`,
        'BEGIN;',
        'SELECT n FROM bench_pgbench WHERE id = :id;',
        'UPDATE bench_pgbench SET n = n + 1 WHERE id = :id;',
        'END;',
      ].join('\n'),
    );
    const args = [
      '-n',
      '-h',
      url.hostname,
      '-p',
      url.port || '5432',
      '-U',
      decodeURIComponent(url.username || 'postgres'),
      '-c',
      String(clients),
      '-j',
      String(Math.min(clients, cpus().length)),
      '-T',
      String(seconds),
      '-f',
      script,
      '-l',
      `--log-prefix=${join(dir, 'log')}`,
      url.pathname.slice(1),
    ];
    const run = spawnSync('pgbench', args, { encoding: 'utf8', env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) } });
    if (run.status !== 0) throw new Error(`pgbench failed: ${run.stderr || run.error}`);
    const tps = Number(/tps = ([\d.]+)/.exec(run.stdout)?.[1]);
    // Per-transaction log lines: client_id transaction_no time_us script_no epoch epoch_us
    const latencies = readdirSync(dir)
      .filter((f) => f.startsWith('log'))
      .flatMap((f) =>
        readFileSync(join(dir, f), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => Number(line.split(' ')[2]) / 1000),
      );
    latencies.sort((a, b) => a - b);
    return { tps, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const line = (label: string, r: LoadResult, seconds = SECONDS) => {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  const perSecond = sorted.length / seconds;
  return {
    perSecond,
    text: `${label}${perSecond.toFixed(1)} req/s  p50 ${percentile(sorted, 0.5).toFixed(1)} ms  p99 ${percentile(sorted, 0.99).toFixed(1)} ms`,
  };
};

async function main() {
  // The first API process is this one: it runs with npm start's Node flags, or runs itself again with them.
  if (!API_NODE_FLAGS.every((f) => process.execArgv.includes(f))) {
    const again = fork(__filename, process.argv.slice(2), { execArgv: [...process.execArgv, ...API_NODE_FLAGS] });
    process.exitCode = await new Promise<number>((resolve) => again.once('exit', (code) => resolve(code ?? 1)));
    return;
  }
  const loadBefore = loadavg();
  const { name, admin, env, drop } = await scratchDatabase('api', process.env.BENCH_LOG_LEVEL ?? 'silent');
  const scratch = new URL(env.DATABASE_URL!);
  postmaster = postmasterOf(Number((await admin.query('SELECT pg_backend_pid() AS pid')).rows[0].pid));
  const extra: ChildProcess[] = [];
  try {
    let runtime: Runtime | undefined;
    let api: Awaited<ReturnType<typeof runLoad>>;
    let noop: Awaited<ReturnType<typeof runLoad>>;
    let coldApi: Awaited<ReturnType<typeof runLoad>> | undefined;
    let apiTransactions = 0;
    let noopTransactions = 0;
    let apiStatements: StatementStats[] | undefined;
    let noopStatements: StatementStats[] | undefined;
    try {
      useProcessLogOutput(); // as npm start: asynchronous log lines
      runtime = await startRuntime(loadConfig(env)); // also migrates the scratch database
      const urls = [runtime.url];
      for (let i = 1; i < API_PROCESSES; i++) {
        const p = await apiProcess(env);
        extra.push(p.child);
        urls.push(p.url);
      }
      const tokens = await seed(runtime.url);
      // Statements the database ran per request (pg_stat_database counts transactions; each
      // statement outside a transaction is one): load-independent, unlike the rates.
      const transactions = async () => {
        await new Promise((r) => setTimeout(r, 1500)); // statistics reach pg_stat_database within a second
        const { rows } = await admin.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [name]);
        return Number(rows[0].n);
      };
      if (WARM_SECONDS > 0) {
        coldApi = await runLoad({ urls, tokens, scenario: 'assessments' }, extra, WARM_SECONDS);
        await runLoad({ urls, tokens, scenario: 'noop' }, extra, WARM_SECONDS);
      }
      let before = await transactions();
      // pg_stat_statements over each whole load (warm-up included, like the transactions): every request counts.
      const statements = await statementsAvailable(admin);
      if (statements) await admin.query('SELECT pg_stat_statements_reset()');
      api = await runLoad({ urls, tokens, scenario: 'assessments' }, extra);
      apiTransactions = ((await transactions()) - before) / api.requests;
      if (statements) {
        apiStatements = await statementStats(admin, name);
        await admin.query('SELECT pg_stat_statements_reset()');
      }
      before = await transactions();
      noop = await runLoad({ urls, tokens, scenario: 'noop' }, extra);
      noopTransactions = ((await transactions()) - before) / noop.requests;
      if (statements) noopStatements = await statementStats(admin, name);
      if (process.env.CPU_PROF && API_PROCESSES === 1) {
        // Profiled passes, after the measured ones: the API runs in this process, so the profiler is in-process.
        for (const scenario of ['noop', 'assessments'] as const) {
          const stop = await startCpuProfile();
          const profiled = await runLoad({ urls, tokens, scenario }, extra);
          const profile = await stop();
          printStackTable(scenario === 'noop' ? 'authenticated no-op' : 'start + answers', profile, profiled.requests);
          // CPU_PROF_DIR keeps the raw profile (open it in Chrome's DevTools, or read it with a script).
          if (process.env.CPU_PROF_DIR)
            writeFileSync(join(process.env.CPU_PROF_DIR, `api-${scenario}.cpuprofile`), JSON.stringify(profile));
        }
      }
    } finally {
      // Frees the API's connections before pgbench opens its own.
      for (const child of extra) {
        child.send('close');
        await new Promise((r) => child.once('exit', r));
      }
      await runtime?.close();
    }

    const db = new Client({ connectionString: scratch.toString() });
    await db.connect();
    // How the answers' UPDATEs were written: a HOT update touches no index; the others update each one.
    const [updates] = (
      await db.query(
        `SELECT n_tup_upd AS updated, n_tup_hot_upd AS hot, pg_size_pretty(pg_total_relation_size('assessments')) AS size,
                coalesce(pg_size_pretty(pg_total_relation_size(to_regclass('assessment_log'))), 'none') AS log_size,
                (SELECT count(*) FROM assessments) AS rows, (SELECT round(avg(pg_column_size(a.*))) FROM assessments a) AS row_bytes,
                (SELECT json_build_object('debug_log', round(avg(pg_column_size(debug_log))), 'current_question', round(avg(pg_column_size(current_question))),
                   'answers', round(avg(pg_column_size(answers))), 'answer_details', round(avg(pg_column_size(answer_details))),
                   'findings', round(avg(pg_column_size(findings))), 'recommendation', round(avg(pg_column_size(recommendation))),
                   'undetermined_rules', round(avg(pg_column_size(undetermined_rules))), 'rule_set_versions', round(avg(pg_column_size(rule_set_versions)))) FROM assessments) AS columns
           FROM pg_stat_user_tables WHERE relname = 'assessments'`,
      )
    ).rows as { updated: string; hot: string; size: string; log_size: string; rows: string; row_bytes: string; columns: object }[];
    await db.query('CREATE TABLE bench_pgbench (id integer PRIMARY KEY, n integer NOT NULL DEFAULT 0)');
    await db.query(`INSERT INTO bench_pgbench (id) SELECT generate_series(1, ${PGBENCH_ROWS})`);
    await db.query('VACUUM ANALYZE bench_pgbench');
    const [{ version }] = (await db.query('SELECT version()')).rows;
    // The ceiling: the same load against a bare node:http server doing one UPDATE per request.
    const bareServer = await apiProcess(env, 'BENCH_BARE');
    let bare: Awaited<ReturnType<typeof runLoad>>;
    try {
      if (WARM_SECONDS > 0) await runLoad({ urls: [bareServer.url], tokens: ['none'], scenario: 'bare' }, [bareServer.child], WARM_SECONDS);
      bare = await runLoad({ urls: [bareServer.url], tokens: ['none'], scenario: 'bare' }, [bareServer.child]);
    } finally {
      bareServer.child.send('close');
      await new Promise((r) => bareServer.child.once('exit', r));
    }
    // pgbench needs a connection per client; on a shared server other sessions hold some of max_connections.
    const [{ free }] = (await db.query(`SELECT current_setting('max_connections')::int - count(*)::int AS free FROM pg_stat_activity`))
      .rows;
    await db.end();
    const pgbenchClients = Math.min(CLIENTS, free - 2);
    const floor = pgbench(scratch, pgbenchClients, SECONDS);

    const assessments = line('API start + answers:            ', api);
    console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}); ${String(version).split(' on ')[0]}`);
    console.log(
      `${CLIENTS} clients, ${API_PROCESSES} API process${API_PROCESSES === 1 ? '' : 'es'}, ${SECONDS} s measured after ${WARMUP_SECONDS} s warm-up` +
        (WARM_SECONDS > 0
          ? `, each scenario (the bare server's too) after an unmeasured ${WARM_SECONDS} s pass of it`
          : ', cold processes'),
    );
    if (pgbenchClients < CLIENTS) console.log(`pgbench ran ${pgbenchClients} clients: the other connection slots were in use`);
    console.log(
      `pgbench select+update (floor):  ${floor.tps.toFixed(1)} tx/s  p50 ${floor.p50.toFixed(1)} ms  p99 ${floor.p99.toFixed(1)} ms`,
    );
    console.log(`${assessments.text}  (${(api.assessments / SECONDS).toFixed(1)} completed assessments/s)`);
    if (coldApi)
      console.log(
        `${line('  its first pass (cold process):  ', coldApi, WARM_SECONDS).text}  (API CPU ${(coldApi.stats.reduce((sum, s) => sum + s.cpuMicros, 0) / 1000 / coldApi.requests).toFixed(3)} ms per request)`,
      );
    console.log(line('context, authenticated no-op:   ', noop).text);
    const bareLine = line('context, bare node:http + pg:   ', bare);
    console.log(`${bareLine.text}  (one UPDATE per request, no framework: what any Node API could reach here)`);
    const noopLine = line('', noop);
    console.log(`ratio API / pgbench: ${(assessments.perSecond / floor.tps).toFixed(2)} (goal >= 0.50)`);
    console.log(`ratio no-op / pgbench: ${(noopLine.perSecond / floor.tps).toFixed(2)}`);
    console.log(
      `ratio bare node / pgbench: ${(bareLine.perSecond / floor.tps).toFixed(2)}; API / bare node: ${(assessments.perSecond / bareLine.perSecond).toFixed(2)}`,
    );
    const cpu = (r: typeof api) => r.stats.reduce((sum, s) => sum + s.cpuMicros, 0) / 1000 / r.requests;
    // The bare server's figure is its own process only (index 1; index 0 is this idle process).
    const bareCpu = bare.stats[1].cpuMicros / 1000 / bare.requests;
    console.log(
      `assessments table: ${updates.rows} rows of ${updates.row_bytes} bytes on average (${updates.size} with indexes and TOAST); ${updates.updated} updates, ${((100 * Number(updates.hot)) / Math.max(1, Number(updates.updated))).toFixed(0)} % HOT; average bytes per column (as stored): ${JSON.stringify(updates.columns)}; assessment_log (appended evaluation log) ${updates.log_size}`,
    );
    console.log(`database transactions per request: start + answers ${apiTransactions.toFixed(2)}, no-op ${noopTransactions.toFixed(2)}`);
    if (apiStatements) printStatements('start + answers', apiStatements, api.requests);
    if (noopStatements) printStatements('no-op', noopStatements, noop.requests);
    if (postmaster !== undefined) console.log(`PostgreSQL CPU counts the processes of the server with postmaster pid ${postmaster} only`);
    const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
    console.log(
      `API CPU per request (all API processes): start + answers ${cpu(api).toFixed(3)} ms, no-op ${cpu(noop).toFixed(3)} ms; bare node server ${bareCpu.toFixed(3)} ms`,
    );
    // Where the API's time went besides its own code: the kernel's share, and how often the scheduler preempted it.
    const per = (r: typeof api, f: (s: ProcessStats) => number, i?: number) =>
      (i === undefined ? r.stats.reduce((sum, s) => sum + f(s), 0) : f(r.stats[i])) / r.requests;
    console.log(
      `API system CPU per request: start + answers ${(per(api, (s) => s.systemMicros) / 1000).toFixed(3)} ms, no-op ${(per(noop, (s) => s.systemMicros) / 1000).toFixed(3)} ms, bare ${(per(bare, (s) => s.systemMicros, 1) / 1000).toFixed(3)} ms; ` +
        `context switches per request, involuntary / voluntary: start + answers ${per(api, (s) => s.involuntarySwitches).toFixed(2)} / ${per(api, (s) => s.voluntarySwitches).toFixed(2)}, ` +
        `no-op ${per(noop, (s) => s.involuntarySwitches).toFixed(2)} / ${per(noop, (s) => s.voluntarySwitches).toFixed(2)}, bare ${per(bare, (s) => s.involuntarySwitches, 1).toFixed(2)} / ${per(bare, (s) => s.voluntarySwitches, 1).toFixed(2)}`,
    );
    const pg = (r: typeof api) => (r.postgresMicros === undefined ? 'n/a' : `${(r.postgresMicros / 1000 / r.requests).toFixed(3)} ms`);
    console.log(
      `PostgreSQL CPU per request (all its processes): start + answers ${pg(api)}, no-op ${pg(noop)}, bare node server ${pg(bare)}`,
    );
    console.log(
      `RSS per API process at the end of the answer load: ${api.stats.map((s) => `${mb(s.rss)} MB (peak ${mb(s.maxRss)} MB)`).join(', ')}`,
    );
    console.log(`load average before the run: ${loadBefore.map((n) => n.toFixed(2)).join(' ')}`);
    console.log(
      `load average after the run: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    // BENCH_KEEP_DATABASE=1 keeps the scratch database for EXPLAIN (ANALYZE, BUFFERS) on the rows the load wrote.
    if (process.env.BENCH_KEEP_DATABASE) {
      console.log(`scratch database kept: ${name}`);
      await admin.end();
    } else await drop();
  }
}

if (process.env.BENCH_LOAD) {
  process.once('message', (input: LoadInput) => void load(input).then((r) => process.send!(r)));
} else if (process.env.BENCH_BARE) {
  serveBareCeiling(process.env.DATABASE_URL!, 'bench_pgbench', PGBENCH_ROWS).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else if (process.env.BENCH_API_PROCESS) {
  serveApi().catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
