/**
 * Measures benchmark (issue 21): on the official CMS test decks, the product's own evaluation of
 * each measure (criteria and rules, prepared once) against fqm-execution computing the same measure
 * from its CQL/ELM package, in the same process: per-patient CPU time and agreement with the
 * expected populations. fqm-execution runs in its fastest mode: all of a deck's patients in one call,
 * no HTML, clause results or supplemental data.
 * Then a generated panel (PANEL_PATIENTS, default 100,000; 0 skips it) stored in a scratch database on
 * DATABASE_URL's server and evaluated for the three measures (panel-bench.ts).
 * Run: npm run bench:measures (needs ../shared/conformance beside the repository).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { prepareMeasure, type PopulationCode } from '@cds/engine';
import { SHIPPED_MEASURES } from '@cds/backend/dist/modules/measures/shipped-measures';
import { runPanelBench } from './panel-bench';

const ECQM = process.env.ECQM_DIR ?? join(__dirname, '..', '..', '..', 'shared', 'conformance', 'ecqm-2024');
const POPULATIONS: PopulationCode[] = ['initial-population', 'denominator', 'denominator-exclusion', 'numerator'];
const NOW = Date.parse('2026-11-26T12:00:00Z');
const ROUNDS = 3;
const OWN_ROUNDS = 50;

// FHIR JSON of the decks and the package, read loosely: this is a benchmark, not a parser.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Json;
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The Measure and the Libraries it depends on, through each Library's depends-on artifacts (FHIRHelpers included). */
function libraryClosure(pkg: string, measureId: string): Json[] {
  const libraries = readdirSync(pkg)
    .filter((f) => f.startsWith('Library-'))
    .map((f) => readJson(join(pkg, f)));
  // Libraries name each other by ecqi.healthit.gov canonicals while MADiE exports them under its own: match by name.
  const byName = new Map(libraries.map((l) => [String(l.url).split('/').pop(), l]));
  const measure = readJson(join(pkg, `Measure-${measureId}.json`));
  const out = new Map<string, Json>();
  const visit = (canonical: string) => {
    const lib = byName.get(canonical.split('|')[0].split('/').pop());
    if (!lib || out.has(lib.url)) return;
    out.set(lib.url, lib);
    for (const a of (lib.relatedArtifact ?? []) as Json[])
      if (a.type === 'depends-on' && String(a.resource).includes('/Library/')) visit(String(a.resource));
  };
  for (const l of (measure.library ?? []) as string[]) visit(l);
  return [measure, ...out.values()];
}

async function main(): Promise<void> {
  const { Calculator } = (await import('fqm-execution')) as unknown as {
    Calculator: { calculate(measure: Json, patients: Json[], options: Json): Promise<{ results: Json[] }> };
  };
  console.log(
    `Measures benchmark on ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; load ${loadavg()
      .map((n) => fmt(n, 2))
      .join(' ')}\n`,
  );
  console.log(
    '| measure | cases | product µs CPU per patient | fqm-execution ms CPU per patient | × faster | product agrees | fqm-execution agrees |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const pkg = join(ECQM, 'package');
  for (const shipped of SHIPPED_MEASURES) {
    const deck = join(
      ECQM,
      readdirSync(ECQM).find((d) => d.startsWith(`${shipped.identifier}-`))!,
    );
    const valueSets = readdirSync(join(deck, 'valuesets')).map((f) => readJson(join(deck, 'valuesets', f)));
    const cases = readdirSync(join(deck, 'cases')).map((f) => readJson(join(deck, 'cases', f)));
    const period = cases[0].measurement_period as { start: string; end: string };
    const expected = (c: Json, p: PopulationCode) => c.expected[p] as number;

    // The product: criteria resolved against the value sets once, then each patient's resources.
    const codes = new Map<string, string[]>(
      valueSets.map((v) => [v.url, (v.expansion?.contains ?? []).map((x: Json) => `${x.system}|${x.code}`)]),
    );
    const measure = prepareMeasure(shipped.model, codes);
    const records = cases.map((c) => (c.bundle.entry as Json[]).map((e) => e.resource));
    let agree = 0;
    records.forEach((r, i) => {
      const o = measure.evaluate(r, cases[i].measurement_period, NOW);
      if (POPULATIONS.every((p) => (o.populations[p] === true ? 1 : 0) === expected(cases[i], p))) agree++;
    });
    let own = Infinity;
    for (let round = 0; round < OWN_ROUNDS; round++) {
      const start = cpuMs();
      for (const r of records) measure.evaluate(r, period, NOW);
      own = Math.min(own, (cpuMs() - start) / records.length);
    }

    // fqm-execution: the Measure, every Library and the deck's value sets in one Bundle; all patients in one call.
    const resources = libraryClosure(pkg, shipped.id);
    const measureBundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [...resources, ...valueSets].map((resource) => ({ resource })),
    };
    const options = {
      measurementPeriodStart: period.start,
      measurementPeriodEnd: period.end,
      calculateHTML: false,
      calculateSDEs: false,
      calculateClauseCoverage: false,
      includeClauseResults: false,
    };
    // All patients in one call is its fastest mode; a deck on which that call fails (one patient's data
    // can stop cql-execution) is calculated case by case, a failed case counting as a disagreement.
    const agreesWith = (c: Json, r: Json | undefined) => {
      const pops = (r?.detailedResults?.[0]?.populationResults ?? []) as Json[];
      return r !== undefined && POPULATIONS.every((p) => (pops.find((x) => x.populationType === p)?.result ? 1 : 0) === expected(c, p));
    };
    let peer = Infinity;
    let peerAgree = 0;
    let mode = 'one call';
    for (let round = 0; round < ROUNDS; round++) {
      const start = cpuMs();
      let results: (Json | undefined)[];
      try {
        results = (
          await Calculator.calculate(
            measureBundle,
            cases.map((c) => c.bundle),
            options,
          )
        ).results;
      } catch {
        mode = 'case by case';
        results = [];
        for (const c of cases)
          results.push(
            await Calculator.calculate(measureBundle, [c.bundle], options).then(
              (r) => r.results[0],
              () => undefined,
            ),
          );
      }
      peer = Math.min(peer, (cpuMs() - start) / cases.length);
      if (round === 0) peerAgree = cases.filter((c, i) => agreesWith(c, results[i])).length;
    }
    console.log(
      `| ${shipped.identifier} | ${cases.length} | ${fmt(own * 1000, 1)} | ${fmt(peer, 1)} | ${fmt(peer / own, 0)} | ${agree}/${cases.length} | ${peerAgree}/${cases.length} (${mode}) |`,
    );
  }
  const panel = Number(process.env.PANEL_PATIENTS ?? 100_000);
  if (panel > 0) await runPanelBench(panel, fmt);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
