/**
 * Engine benchmark: rule sets of 100, 1,000 and 10,000 rules evaluated over generated patients
 * by the compiled engine, the plain interpreter, hand-generated straight-line code (the limit)
 * and json-rules-engine, on identical inputs. Exits non-zero if any two disagree.
 * Run: npm run bench:engine
 */
import { cpus } from 'node:os';
import { buildParameterIndex, compileRuleSet, evaluateRule, type Answers, type EngineRule } from '../engine';
import { handGenerated, jsonRulesEngine } from './engine-bench-baselines';
import { generateParameters, generatePatients, generateRules, random } from './engine-bench-data';

const PARAMETERS = 40;
const SIZES = [
  { rules: 100, patients: 20_000, interpreterPatients: 2_000, jrePatients: 200 },
  { rules: 1_000, patients: 2_000, interpreterPatients: 200, jrePatients: 20 },
  { rules: 10_000, patients: 200, interpreterPatients: 20, jrePatients: 3 },
];
const ROUNDS = 9;
const TRI = [false, 'unknown', true] as const;

type Evaluate = (answers: Answers, out: Uint8Array) => void;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median over rounds of ns per rule evaluation; the first round only warms up. */
function timeSync(evaluate: Evaluate, patients: Answers[], out: Uint8Array, rounds: number): number {
  const samples: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const start = process.hrtime.bigint();
    for (const answers of patients) evaluate(answers, out);
    const ns = Number(process.hrtime.bigint() - start);
    if (round > 0) samples.push(ns / (patients.length * out.length));
  }
  return median(samples);
}

async function timeAsync(
  evaluate: (answers: Answers, out: Uint8Array) => Promise<void>,
  patients: Answers[],
  out: Uint8Array,
  rounds: number,
): Promise<number> {
  const samples: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const start = process.hrtime.bigint();
    for (const answers of patients) await evaluate(answers, out);
    const ns = Number(process.hrtime.bigint() - start);
    if (round > 0) samples.push(ns / (patients.length * out.length));
  }
  return median(samples);
}

/** Every evaluator must give the compiled engine's result for every rule and patient. */
function disagreements(name: string, expected: Uint8Array[], actual: Uint8Array[], twoValued: boolean): string[] {
  const problems: string[] = [];
  actual.forEach((row, p) => {
    row.forEach((code, r) => {
      const want = twoValued ? (expected[p][r] === 2 ? 1 : 0) : expected[p][r];
      if (code !== want && problems.length < 5) problems.push(`${name}: patient ${p}, rule ${r}: ${code} instead of ${want}`);
    });
  });
  return problems;
}

function resultsOf(evaluate: Evaluate, patients: Answers[], size: number): Uint8Array[] {
  return patients.map((answers) => {
    const out = new Uint8Array(size);
    evaluate(answers, out);
    return out;
  });
}

const fmt = (n: number, digits = 1): string => n.toFixed(digits);

async function main(): Promise<void> {
  const started = Date.now();
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}`;
  console.log(`Engine benchmark on ${machine}`);
  console.log(`${PARAMETERS} numeric parameters; rules of 1-4 conditions (1 in 5 links OR); patients with missing, 'unknown' and range answers.\n`);
  console.log('| rules | evaluator | ns per rule evaluation | × hand-generated |');
  console.log('|---:|---|---:|---:|');
  const problems: string[] = [];
  const summary: Record<number, Record<string, number>> = {};

  for (const size of SIZES) {
    const rnd = random(20250101 + size.rules);
    const parameters = generateParameters(PARAMETERS, rnd);
    const rules: EngineRule[] = generateRules(size.rules, parameters, rnd);
    const patients = generatePatients(size.patients, parameters, rnd);
    const index = buildParameterIndex(parameters);
    const out = new Uint8Array(size.rules);

    const compileStart = process.hrtime.bigint();
    const compiled = compileRuleSet(rules, index);
    const compileMs = Number(process.hrtime.bigint() - compileStart) / 1e6;
    const hand = handGenerated(rules, parameters.map((p) => p.id), 250);
    const engineEvaluate: Evaluate = (answers, o) => compiled.evaluateInto(answers, o);
    const interpreter: Evaluate = (answers, o) => {
      for (let i = 0; i < rules.length; i++) {
        const result = evaluateRule(rules[i], answers, index).result;
        o[i] = TRI.indexOf(result);
      }
    };
    const jre = jsonRulesEngine(rules);

    const expected = resultsOf(engineEvaluate, patients, size.rules);
    problems.push(...disagreements('hand-generated', expected, resultsOf(hand, patients, size.rules), false));
    const interpreterPatients = patients.slice(0, size.interpreterPatients);
    problems.push(...disagreements('interpreter', expected, resultsOf(interpreter, interpreterPatients, size.rules), false));
    const jrePatients = patients.slice(0, size.jrePatients);
    const jreResults: Uint8Array[] = [];
    for (const answers of jrePatients) {
      const row = new Uint8Array(size.rules);
      await jre(answers, row);
      jreResults.push(row);
    }
    problems.push(...disagreements('json-rules-engine', expected, jreResults, true));

    // Interleave the two fast evaluators so drift on a shared machine affects both alike.
    const handSamples: number[] = [];
    const engineSamples: number[] = [];
    for (let i = 0; i < 3; i++) {
      handSamples.push(timeSync(hand, patients, out, ROUNDS));
      engineSamples.push(timeSync(engineEvaluate, patients, out, ROUNDS));
    }
    const handNs = Math.min(...handSamples);
    const engineNs = Math.min(...engineSamples);
    const interpreterNs = timeSync(interpreter, interpreterPatients, out, 3);
    const jreNs = await timeAsync(jre, jrePatients, out, 2);
    summary[size.rules] = { hand: handNs, engine: engineNs, interpreter: interpreterNs, jre: jreNs, compileMs };

    const row = (name: string, ns: number): void =>
      console.log(`| ${size.rules.toLocaleString('en-US')} | ${name} | ${fmt(ns, 2)} | ${fmt(ns / handNs, 2)} |`);
    row('hand-generated code (limit)', handNs);
    row(`compiled engine (compiled in ${fmt(compileMs)} ms)`, engineNs);
    row('plain interpreter (evaluateRule)', interpreterNs);
    row('json-rules-engine 7', jreNs);
  }

  const at1000 = summary[1000];
  console.log('');
  console.log(
    `Goal at 1,000 rules: compiled within 1.5× of hand-generated: ${fmt(at1000.engine / at1000.hand, 2)}× ` +
      `(${at1000.engine / at1000.hand <= 1.5 ? 'met' : 'NOT met'}); ` +
      `≥ 100× faster than json-rules-engine: ${fmt(at1000.jre / at1000.engine, 0)}× (${at1000.jre / at1000.engine >= 100 ? 'met' : 'NOT met'}).`,
  );
  console.log(`Total time ${fmt((Date.now() - started) / 1000)} s.`);
  if (problems.length > 0) {
    console.error(`\nEvaluators disagree:\n${problems.join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log('All evaluators agree on every rule and patient.');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
