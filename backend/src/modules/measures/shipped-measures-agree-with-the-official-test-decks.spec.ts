import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareMeasure, type PopulationCode } from '@cds/engine';
import { SHIPPED_MEASURES } from './shipped-measures';

// The official CMS test decks (../shared/conformance, or ECQM_DIR), evaluated by the product's own criteria and rules.
const ECQM = process.env.ECQM_DIR || join(__dirname, '..', '..', '..', '..', '..', 'shared', 'conformance', 'ecqm-2024');
const POPULATIONS: PopulationCode[] = ['initial-population', 'denominator', 'denominator-exclusion', 'numerator'];

interface Case {
  file: string;
  description: string;
  measurement_period: { start: string; end: string };
  expected: Record<string, number>;
  bundle: { entry: { resource: unknown }[] };
}

function deckOf(identifier: string): string | undefined {
  const folder = existsSync(ECQM) ? readdirSync(ECQM).find((d) => d.startsWith(`${identifier}-`)) : undefined;
  return folder && join(ECQM, folder);
}

function valueSets(deck: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of readdirSync(join(deck, 'valuesets'))) {
    const v = JSON.parse(readFileSync(join(deck, 'valuesets', f), 'utf8')) as {
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

for (const shipped of SHIPPED_MEASURES) {
  const deck = deckOf(shipped.identifier);
  // Without the decks (ECQM_DIR unset, a worktree not beside shared/) the suite is skipped, never crashed while collected.
  if (!deck) {
    describe.skip(`${shipped.identifier} on its official test deck`, () => it('needs the official decks (ECQM_DIR)', () => undefined));
    continue;
  }
  describe(`${shipped.identifier} on its official test deck`, () => {
    const measure = prepareMeasure(shipped.model, valueSets(deck));
    const cases: Case[] = readdirSync(join(deck, 'cases')).map((file) => ({
      file,
      ...(JSON.parse(readFileSync(join(deck, 'cases', file), 'utf8')) as Omit<Case, 'file'>),
    }));

    it.each(cases.map((c) => [c.description, c] as const))('%s', (_description, c) => {
      const outcome = measure.evaluate(
        c.bundle.entry.map((e) => e.resource),
        c.measurement_period,
        Date.parse('2026-11-26T12:00:00Z'),
      );
      const got = Object.fromEntries(POPULATIONS.map((p) => [p, outcome.populations[p] === true ? 1 : 0]));
      const expected = Object.fromEntries(POPULATIONS.map((p) => [p, c.expected[p]]));
      expect({ file: c.file, ...got }).toEqual({ file: c.file, ...expected });
    });
  });
}
