/**
 * Impact preview benchmark: a draft of 1,000 rules (one in twenty edited: a cut-point raised by
 * 10 %, half of those re-prioritised) against its published version, over 10,000 patients drawn around
 * the cut-points, as the publish dialog computes it. Ratios against two baselines measured in
 * the same process: the floor (bare compiled evaluation of both versions, nothing else) and the
 * interpreter doing the same comparison (runVignette per patient and version).
 * Exits non-zero if the compiled comparison and the interpreter disagree on any patient.
 * Then the endpoint itself (ENDPOINT=0 skips it): the app started in this process on a scratch
 * database of the PostgreSQL named by DATABASE_URL, the same 1,000 rules created, published and
 * edited through the API, and POST /api/rule-sets/:id/impact-preview timed, as a ratio to the
 * engine-only preview above.
 * Run: npm run bench:impact
 */
import { cpus } from 'node:os';
import { loadConfig } from '@cds/backend/dist/config/app-config';
import { startRuntime } from '@cds/backend/dist/runtime';
import { compileRuleSet, generatePopulation, ImpactComparer, runVignette, type EngineRule, type ImpactPatient } from '@cds/engine';
import type { ImpactPreviewJson } from '@cds/contracts';
import { http } from './bench-http';
import { scratchDatabase } from './bench-scratch';
import { generateParameters, generateRules, random } from './engine-bench-data';

const RULES = Number(process.env.RULES ?? 1_000);
const PATIENTS = Number(process.env.PATIENTS ?? 10_000);
const INTERPRETER_PATIENTS = 300;
const ROUNDS = 5;
const GOAL_MS = 2_000;

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function best(rounds: number, run: () => void): number {
  let least = Infinity;
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    run();
    least = Math.min(least, ms(start));
  }
  return least;
}

/**
 * One condition per parameter in a rule: the generator can write "x > 75 and x < 28", which the
 * publish gate refuses as unsatisfiable, and the endpoint part publishes these rules.
 */
function publishable(rules: EngineRule[]): EngineRule[] {
  return rules.map((rule) => ({
    ...rule,
    conditions: rule.conditions.filter((c, i) => rule.conditions.findIndex((d) => d.parameter === c.parameter) === i),
  }));
}

function edit(rules: EngineRule[], rnd: () => number): EngineRule[] {
  return rules.map((rule, i) => {
    if (i % 20 !== 0) return rule;
    const conditions = rule.conditions.map((c, j) =>
      j === 0 && typeof c.value === 'number' ? { ...c, value: Math.round(c.value * 11) / 10 } : c,
    );
    return { ...rule, conditions, priority: rnd() < 0.5 ? rule.priority : Math.floor(rnd() * 101) };
  });
}

async function main(): Promise<number> {
  const rnd = random(13);
  const parameters = generateParameters(40, rnd);
  const published = publishable(generateRules(RULES, parameters, rnd));
  const draft = edit(published, rnd);
  const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
  console.log(`Impact preview benchmark on ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, Node ${process.version}`);
  console.log(`${fmt(PATIENTS)} generated patients × ${fmt(RULES)} rules (${fmt(RULES / 20)} edited), best of ${ROUNDS}\n`);

  let population: ImpactPatient[] = [];
  let changed = 0;
  const preview = best(ROUNDS, () => {
    population = generatePopulation([...published, ...draft], parameters, { size: PATIENTS, seed: 13 });
    changed = new ImpactComparer(published, draft, parameters).compare(population).changed;
  });
  const floor = best(ROUNDS, () => {
    const out = new Uint8Array(RULES);
    for (const compiled of [compileRuleSet(published, parameters), compileRuleSet(draft, parameters)]) {
      for (const p of population) compiled.evaluateInto(p.answers, out, { unanswered: 'unknown' });
    }
  });
  const sample = population.slice(0, INTERPRETER_PATIENTS);
  const interpreterTransitions: string[] = [];
  const interpreted =
    (best(1, () => {
      sample.forEach((p, i) => {
        const from = runVignette(published, parameters, p.answers).primary;
        const to = runVignette(draft, parameters, p.answers).primary;
        if (from !== to) interpreterTransitions.push(`${i}:${from}>${to}`);
      });
    }) *
      PATIENTS) /
    INTERPRETER_PATIENTS;
  const compiledTransitions = new ImpactComparer(published, draft, parameters)
    .compare(sample, { examples: Infinity })
    .transitions.flatMap((t) => t.examples.map((i) => `${i}:${t.from}>${t.to}`))
    .sort((a, b) => parseInt(a) - parseInt(b));

  console.log('| measure | ms | × floor |');
  console.log('|---|---:|---:|');
  console.log(`| floor: compile both versions + evaluate every rule for every patient | ${fmt(floor)} | 1.00 |`);
  console.log(`| impact preview (generate population, compile, rank, compare) | ${fmt(preview)} | ${fmt(preview / floor, 2)} |`);
  console.log(
    `| interpreter, same comparison (extrapolated from ${INTERPRETER_PATIENTS} patients) | ${fmt(interpreted)} | ${fmt(interpreted / floor, 2)} |`,
  );
  console.log(
    `\nReclassified: ${fmt(changed)} of ${fmt(PATIENTS)}. Preview ${fmt(preview)} ms: goal ≤ ${fmt(GOAL_MS)} ms ${preview <= GOAL_MS ? 'met' : 'NOT met'}.`,
  );
  if (compiledTransitions.join() !== interpreterTransitions.join()) {
    console.error(
      `Compiled and interpreter disagree on the first ${INTERPRETER_PATIENTS} patients:\n${compiledTransitions.join(' ')}\n${interpreterTransitions.join(' ')}`,
    );
    process.exitCode = 1;
  } else
    console.log(
      `Compiled comparison and interpreter agree on every one of the first ${INTERPRETER_PATIENTS} patients (${interpreterTransitions.length} reclassified).`,
    );
  return preview;
}

/** The same knowledge through the API: 40 parameters, 1,000 rules, published, then one rule in twenty edited. */
async function endpoint(enginePreview: number): Promise<void> {
  const { env, drop } = await scratchDatabase('impact');
  const runtime = await startRuntime(loadConfig(env));
  try {
    const url = runtime.url;
    const signUp = await http(url, 'POST', '/api/auth/signup', null, {
      email: 'bench.admin@clinic.test',
      password: 'correct horse battery staple',
    });
    const token = signUp.access_token; // the first account is the super_admin
    const rnd = random(13);
    const generated = generateParameters(40, rnd);
    const ids = new Map<string, string>();
    for (const p of generated) {
      const body = { name: p.name, display_name: p.display_name, data_type: p.data_type, category: 'labs' };
      ids.set(p.id, (await http(url, 'POST', '/api/parameters', token, body)).id);
    }
    const set = await http(url, 'POST', '/api/rule-sets', token, { name: 'Impact bench' });
    const made: { id: string; rule: EngineRule }[] = [];
    for (const generatedRule of publishable(generateRules(RULES, generated, rnd))) {
      const rule = { ...generatedRule, conditions: generatedRule.conditions.map((c) => ({ ...c, parameter: ids.get(c.parameter)! })) };
      const body = {
        rule_set_id: set.id,
        name: rule.name,
        priority: Math.min(100, rule.priority),
        conditions: rule.conditions,
        actions: rule.actions,
      };
      made.push({ id: (await http(url, 'POST', '/api/rules', token, body)).id, rule });
    }
    const seen = await http(url, 'POST', `/api/rule-sets/${set.id}/impact-preview`, token);
    await http(url, 'POST', `/api/rule-sets/${set.id}/publish`, token, {
      impact_preview_id: seen.id,
      acknowledge_warnings: { reason: 'bench' },
    });
    for (const [i, { id, rule }] of made.entries()) {
      if (i % 20 !== 0) continue;
      const conditions = rule.conditions.map((c, j) =>
        j === 0 && typeof c.value === 'number' ? { ...c, value: Math.round(c.value * 11) / 10 } : c,
      );
      await http(url, 'PUT', `/api/rules/${id}`, token, { conditions });
    }
    let best = Infinity;
    let inside = 0;
    let changed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const start = process.hrtime.bigint();
      const preview = (await http(url, 'POST', `/api/rule-sets/${set.id}/impact-preview`, token)) as ImpactPreviewJson;
      const wall = ms(start);
      if (wall < best) {
        best = wall;
        inside = preview.elapsed_ms;
        changed = preview.groups.find((g) => g.key === 'generated')?.changed ?? 0;
      }
    }
    const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
    console.log(`\nEndpoint (the app in this process, a scratch database on ${new URL(env.DATABASE_URL!).host}), best of ${ROUNDS}:\n`);
    console.log('| measure | ms | × engine-only preview |');
    console.log('|---|---:|---:|');
    console.log(`| engine-only preview (above) | ${fmt(enginePreview)} | 1.00 |`);
    console.log(`| POST /api/rule-sets/:id/impact-preview, wall | ${fmt(best)} | ${fmt(best / enginePreview, 2)} |`);
    console.log(`| of which inside its transaction (elapsed_ms) | ${fmt(inside)} | ${fmt(inside / enginePreview, 2)} |`);
    console.log(
      `\nGenerated patients reclassified: ${fmt(changed)}. Endpoint ${fmt(best)} ms: goal ≤ ${fmt(GOAL_MS)} ms ${best <= GOAL_MS ? 'met' : 'NOT met'}.`,
    );
  } finally {
    await runtime.close();
    await drop();
  }
}

main()
  .then((preview) => (process.env.ENDPOINT === '0' ? undefined : endpoint(preview)))
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
