import type { MeasureDraftRuleJson, MeasureLocalVersionJson, MeasureVersionJson } from '@cds/contracts';
import type { EngineParameter, EngineRule, MeasureModel, PopulationCode } from '@cds/engine';
import type { ShippedMeasure } from './measure-content';

/** A published local version as stored: its number, note, when, and its population rules as a draft gives them. */
export interface StoredLocalVersion {
  version: number;
  note: string;
  published_at: Date;
  rules: MeasureDraftRuleJson[];
}

/** "1 (CMS as shipped)", "2 (local)". */
export const versionLabel = (version: number) => (version === 1 ? '1 (CMS as shipped)' : `${version} (local)`);

/** Version 1 in a history: the CMS definition as shipped, published until a local version is, retired after. */
export function shippedVersionJson(measureId: string, published: boolean): MeasureVersionJson {
  return {
    measure_id: measureId,
    version: 1,
    label: versionLabel(1),
    status: published ? 'published' : 'retired',
    source: 'shipped',
    revision: 1,
    note: null,
    created: null,
    updated: null,
    published: null,
  };
}

/** A model's population rules in a draft's form: the shipped version sent back as a draft changes nothing. */
export function draftRulesOf(model: MeasureModel): MeasureDraftRuleJson[] {
  const byId = new Map(model.rules.map((r) => [r.id, r]));
  return Object.entries(model.populations).flatMap(([population, ids]) =>
    (ids ?? [])
      .map((id) => byId.get(id))
      .filter((r): r is EngineRule => !!r)
      .map((r) => ({
        id: r.id,
        name: r.name,
        population,
        conditions: r.conditions.map((c) => ({ parameter: String(c.parameter), operator: String(c.operator), value: c.value })),
      })),
  );
}

/** The model of population rules already read (every rule named, in a population), on the measure's own parameters. */
export function modelOfRules(
  parameters: readonly EngineParameter[],
  rules: readonly (MeasureDraftRuleJson & { id: string })[],
): MeasureModel {
  const populations: Partial<Record<PopulationCode, string[]>> = {};
  for (const r of rules) (populations[r.population as PopulationCode] ??= []).push(r.id);
  return {
    parameters: [...parameters],
    rules: rules.map((r) => ({
      id: r.id,
      name: r.name,
      description: null,
      priority: 0,
      conditions: r.conditions.map((c) => ({ type: 'parameter' as const, parameter: c.parameter, operator: c.operator, value: c.value })),
      actions: [],
    })),
    populations,
  };
}

/**
 * A published local version of a shipped measure: the shipped record criteria and value sets with the version's
 * population rules. It no longer is the CMS measure as specified, and says so: its source names the local version,
 * `local` carries the number and change note every report shows, and the words that state a cut-point are said again
 * for its own model.
 */
export function localMeasure(shipped: ShippedMeasure, stored: StoredLocalVersion): ShippedMeasure {
  const model = modelOfRules(
    shipped.model.parameters,
    stored.rules.map((r, i) => ({ ...r, id: r.id ?? `draft-${i + 1}` })),
  );
  const local: MeasureLocalVersionJson = {
    version: stored.version,
    label: versionLabel(stored.version),
    note: stored.note,
    published_at: stored.published_at.toISOString(),
  };
  return {
    ...shipped,
    ...shipped.reworded?.(model),
    model,
    source: `Local version ${stored.version} of ${shipped.identifier}, changed from ${shipped.source}`,
    local,
  };
}

const token = (n: number) => new RegExp(`(^|[^\\d.])${String(n).replace('.', '\\.')}(?![\\d.])`);

/**
 * The rules whose name still states a cut-point their conditions no longer use ("HbA1c > 9 %" comparing with 8):
 * the Panel's evidence and a gap card's basis show rule names, so a publish naming the old number is refused.
 */
export function staleRuleNames(
  rules: readonly MeasureDraftRuleJson[],
  before: readonly MeasureDraftRuleJson[],
): { field: string; message: string }[] {
  return rules.flatMap((r, i) => {
    const was = before.find((b) => b.id !== undefined && b.id === r.id);
    if (!was || was.conditions.length !== r.conditions.length) return [];
    return r.conditions.flatMap((c, j) => {
      const old = was.conditions[j].value;
      if (
        typeof old !== 'number' ||
        typeof c.value !== 'number' ||
        old === c.value ||
        !token(old).test(r.name) ||
        token(c.value).test(r.name)
      )
        return [];
      return [{ field: `rules[${i}].name`, message: `rules[${i}].name says ${old} but the rule now compares with ${c.value}: rename it` }];
    });
  });
}
