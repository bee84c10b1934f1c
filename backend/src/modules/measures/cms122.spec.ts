import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareMeasure, type PopulationCode } from '@cds/engine';
import { CMS122 } from './cms122';

// The official CMS122 test deck (../shared/conformance), evaluated by the product's own criteria and rules.
const DECK = join(__dirname, '..', '..', '..', '..', '..', 'shared', 'conformance', 'ecqm-2024', 'CMS122-glycemic-status-gt-9');
const POPULATIONS: PopulationCode[] = ['initial-population', 'denominator', 'denominator-exclusion', 'numerator'];

function valueSets(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of readdirSync(join(DECK, 'valuesets'))) {
    const v = JSON.parse(readFileSync(join(DECK, 'valuesets', f), 'utf8')) as {
      url: string;
      expansion?: { contains?: { system: string; code: string }[] };
    };
    out.set(
      v.url,
      (v.expansion?.contains ?? []).map((c) => `${c.system}|${c.code}`),
    );
  }
  return out;
}

const describeDeck = existsSync(DECK) ? describe : describe.skip;

describeDeck('CMS122 on its official test deck', () => {
  const measure = prepareMeasure(CMS122.model, valueSets());
  const cases = readdirSync(join(DECK, 'cases')).map((f) => ({
    file: f,
    ...(JSON.parse(readFileSync(join(DECK, 'cases', f), 'utf8')) as Record<string, any>),
  }));

  it.each(cases.map((c) => [c.description as string, c]))('%s', (_description, c) => {
    const outcome = measure.evaluate(
      c.bundle.entry.map((e: { resource: unknown }) => e.resource),
      c.measurement_period,
      Date.parse('2026-11-26T12:00:00Z'),
    );
    const got = Object.fromEntries(POPULATIONS.map((p) => [p, outcome.populations[p] === true ? 1 : 0]));
    const expected = Object.fromEntries(POPULATIONS.map((p) => [p, c.expected[p]]));
    expect({ file: c.file, ...got }).toEqual({ file: c.file, ...expected });
  });
});
