/**
 * The measure draft's impact preview at population size (issue 21): CMS122 with its numerator cut-point at 8 %
 * previewed over a generated panel (panel-bench.ts, PANEL_PATIENTS, default 10,000), alternately with nothing stored
 * (the measure as it is and the draft both evaluated for every patient: the work the preview did before) and after a
 * measure run stored CMS122's results for the period (the measure as it is read from them, only the draft evaluated).
 * Wall time and the process's CPU per preview, best and median of ROUNDS (default 3) interleaved pairs; the streamed
 * form's progress lines counted once.
 */
import { loadConfig } from '@cds/backend/dist/config/app-config';
import { MeasureDesignService } from '@cds/backend/dist/modules/measures/designer/measure-design.service';
import { MeasureDraftService } from '@cds/backend/dist/modules/measures/designer/measure-draft.service';
import { MeasuresService } from '@cds/backend/dist/modules/measures/measures.service';
import { RecordsRepository } from '@cds/backend/dist/modules/records/records.repository';
import { startRuntime } from '@cds/backend/dist/runtime';
import { loadavg, cpus } from 'node:os';
import { Client } from 'pg';
import { scratchDatabase } from './bench-scratch';
import { PERIOD, storePanel } from './panel-bench';

const CMS122 = 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR';
const fmt = (n: number, digits = 2) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const patients = Number(process.env.PANEL_PATIENTS ?? 10_000);
  const rounds = Number(process.env.ROUNDS ?? 3);
  const scratch = await scratchDatabase('measure-impact');
  const runtime = await startRuntime(loadConfig(scratch.env), { listen: false });
  const db = new Client({ connectionString: scratch.env.DATABASE_URL });
  await db.connect();
  try {
    const records = runtime.app.get(RecordsRepository);
    const measures = runtime.app.get(MeasuresService);
    const drafts = runtime.app.get(MeasureDraftService);
    const design = await runtime.app.get(MeasureDesignService).get(CMS122);
    const rules = design.populations.flatMap((p) =>
      p.rules.map((r) => ({
        id: r.id,
        name: r.id === 'cms122-num-elevated' ? 'Most recent HbA1c or GMI > 8 %' : r.name,
        population: p.code,
        conditions: r.conditions.map((c) => ({
          parameter: c.parameter_id,
          operator: c.operator,
          value: r.id === 'cms122-num-elevated' ? 8 : c.value,
        })),
      })),
    );
    const body = { rules, periodStart: PERIOD.start, periodEnd: PERIOD.end };
    const t0 = Date.now();
    const resources = await storePanel(records, patients);
    console.log(
      `${cpus().length} × ${cpus()[0].model}, Node ${process.version}; ${patients.toLocaleString('en-US')} patients, ${resources.toLocaleString('en-US')} resources stored in ${fmt((Date.now() - t0) / 1000, 1)} s.`,
    );
    const set = await measures.prepare([await measures.measure(CMS122)]);
    const ids = await records.patientIds();
    const timed = async () => {
      const wall = process.hrtime.bigint();
      const cpu = process.cpuUsage();
      let lines = 0;
      // The same bench on the build before the streamed preview (alternated builds): one call, no progress.
      const result = drafts.prepare
        ? await drafts.compute(await drafts.prepare(CMS122, body), () => (lines += 1))
        : await drafts.impact(CMS122, body);
      const used = process.cpuUsage(cpu);
      return { s: Number(process.hrtime.bigint() - wall) / 1e9, cpu: (used.user + used.system) / 1e6, lines, result };
    };
    const cold: Awaited<ReturnType<typeof timed>>[] = [];
    const stored: Awaited<ReturnType<typeof timed>>[] = [];
    const load: number[] = [];
    for (let r = 0; r < rounds; r++) {
      await db.query(`DELETE FROM measure_results`);
      load.push(loadavg()[0]);
      cold.push(await timed());
      // What a measure run stores for CMS122 and the period (MeasureRunsService does this chunk by chunk).
      await measures.evaluateAndStore(set, [PERIOD], ids);
      stored.push(await timed());
      load.push(loadavg()[0]);
    }
    const a = cold.at(-1)!.result;
    const b = stored.at(-1)!.result;
    if (JSON.stringify(a.counts) !== JSON.stringify(b.counts) || a.changed !== b.changed) throw new Error('the two previews disagree');
    console.log(
      `\nCMS122 at 8 %: ${b.changed.toLocaleString('en-US')} of ${b.patients.toLocaleString('en-US')} patients change population; ${cold[0].lines} progress reports per preview.`,
    );
    const inside = b.counts.find((c) => c.population === 'initial-population')!.before;
    console.log(
      `Initial population ${inside.toLocaleString('en-US')} of ${b.patients.toLocaleString('en-US')}: after a run, the records of the others are not read (the draft keeps the initial population's rules).`,
    );
    console.log(`Load average during the rounds: ${fmt(Math.min(...load), 1)}–${fmt(Math.max(...load), 1)}.\n`);
    console.log('| preview | current_from | wall s (best / median) | CPU s (best / median) | µs CPU per patient |');
    console.log('|---|---|---:|---:|---:|');
    for (const [label, xs] of [
      ['nothing stored: both versions evaluated', cold],
      ['after a run: the current version read from its results', stored],
    ] as const) {
      const cf = xs[0].result.current_from ?? { stored: 0, evaluated: patients };
      console.log(
        `| ${label} | ${cf.stored.toLocaleString('en-US')} stored, ${cf.evaluated.toLocaleString('en-US')} evaluated | ${fmt(Math.min(...xs.map((x) => x.s)))} / ${fmt(median(xs.map((x) => x.s)))} | ${fmt(Math.min(...xs.map((x) => x.cpu)))} / ${fmt(median(xs.map((x) => x.cpu)))} | ${fmt((median(xs.map((x) => x.cpu)) * 1e6) / patients, 0)} |`,
      );
    }
    console.log(
      `\nAfter a run ÷ nothing stored (median): wall ${fmt(median(stored.map((x) => x.s)) / median(cold.map((x) => x.s)))}, CPU ${fmt(median(stored.map((x) => x.cpu)) / median(cold.map((x) => x.cpu)))}.`,
    );
  } finally {
    await db.end();
    await runtime.close();
    await scratch.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
