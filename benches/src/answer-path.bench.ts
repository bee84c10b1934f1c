/**
 * npm run bench:answer-path — the CPU of two pieces of an answer request, each against the way it was done before, in
 * the same process (the machine's load disturbs both alike; read the ratios):
 * - the answer body through the global validation pipe: the fast check (`answerAcceptedAsIs`) against class-transformer
 *   and class-validator (the same pipe on a subclass of AnswerDto that has no fast check, so the decorators run);
 * - the answer statement's parameters for the Nth answer of an assessment: the one answer as sent now (its value and its
 *   detail) against the whole answers map, completed ids and details, JSON.stringify'd as before, and the bytes each sends.
 * CPU µs per call is the process's user + system time over CALLS calls; the cases alternate over ROUNDS rounds and each
 * figure is the median round.
 */
import 'reflect-metadata';
import { cpuUsage } from 'node:process';
import { loadavg } from 'node:os';
import type { AnswerDetailJson } from '@cds/contracts';
import { validationPipe } from '@cds/backend/dist/common/validation';
import { AnswerDto } from '@cds/backend/dist/modules/assessments/assessments.dto';
// Every module's DTOs, as in the running API: class-validator looks a class's rules up among all of them on each call.
import '@cds/backend/dist/app.module';

const CALLS = Number(process.env.CALLS ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** The answer being written is this one (the bench:api knowledge base asks two or three questions; a long one asks ten). */
const NTH = Number(process.env.NTH ?? 3);

class AnswerDtoWithoutFastCheck extends AnswerDto {}

const id = (n: number) => `3f2b8c1e-9a4d-4e6f-8b2a-${String(n).padStart(12, '0')}`;
const detail = (n: number): AnswerDetailJson => ({
  parameter_id: id(n),
  parameter_name: `Param_${n}`,
  display_name: `Parameter number ${n}`,
  units: 'mIU/L',
  value: { type: 'range', min: 4.5, max: null, min_inclusive: false, max_inclusive: false },
  unit: null,
  entered_as: 'band',
  label: 'Above 4.5 mIU/L',
  answered_at: '2026-11-27T12:00:00.000Z',
});

async function cpuPerCall(run: () => unknown | Promise<unknown>): Promise<number> {
  const start = cpuUsage();
  for (let i = 0; i < CALLS; i++) await run();
  const used = cpuUsage(start);
  return (used.user + used.system) / CALLS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function main() {
  const body = () => ({ parameter_id: id(NTH), value: 6.5, step: NTH });
  const fast = { type: 'body' as const, metatype: AnswerDto, data: '' };
  const decorators = { type: 'body' as const, metatype: AnswerDtoWithoutFastCheck, data: '' };

  const details = Array.from({ length: NTH }, (_, i) => detail(i + 1));
  const answers = Object.fromEntries(details.map((d) => [d.parameter_id, d.value]));
  const completed = details.map((d) => d.parameter_id);
  const last = details[NTH - 1];
  const before = () => [JSON.stringify(answers), JSON.stringify(completed), JSON.stringify(details)];
  const now = () => [last.parameter_id, JSON.stringify(last.value), JSON.stringify(last)];
  const bytes = (params: string[]) => params.reduce((n, p) => n + Buffer.byteLength(p), 0);

  const cases: [string, () => unknown][] = [
    ['validation pipe, class-validator (before)', () => validationPipe.transform(body(), decorators)],
    ['validation pipe, fast check (now)', () => validationPipe.transform(body(), fast)],
    [`statement parameters, answer ${NTH}: whole maps (before)`, before],
    [`statement parameters, answer ${NTH}: the one answer (now)`, now],
  ];
  const figures = new Map<string, number[]>(cases.map(([label]) => [label, []]));
  for (let round = 0; round < ROUNDS; round++) for (const [label, run] of cases) figures.get(label)!.push(await cpuPerCall(run));

  console.log(
    `${CALLS} calls per case, ${ROUNDS} rounds alternated, median round; load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const m = (label: string) => median(figures.get(label)!);
  for (const [label] of cases) console.log(`  ${m(label).toFixed(2).padStart(8)} µs CPU per call  ${label}`);
  console.log(`validation: now / before ${(m(cases[1][0]) / m(cases[0][0])).toFixed(3)}`);
  console.log(
    `statement parameters: now / before ${(m(cases[3][0]) / m(cases[2][0])).toFixed(3)}; bytes sent ${bytes(now())} now, ${bytes(before())} before`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
