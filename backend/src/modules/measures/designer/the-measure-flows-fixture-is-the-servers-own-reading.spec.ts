import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CMS122 } from '../cms122';
import { CMS165 } from '../cms165';
import { CMS951 } from '../cms951';
import { valueSetsOf, type ShippedMeasure } from '../measure-content';
import { measureDesign, type Codes } from './measure-design';

// The admin console's flow tests draw the shipped measures from a fixture written from this server's measureDesign()
// (frontend/src/admin/test/measureFlowDesigns.json). A measure changed here without the fixture would leave those tests
// drawing a measure the product no longer ships: this fails first.
const fixture = JSON.parse(
  readFileSync(join(__dirname, '../../../../../frontend/src/admin/test/measureFlowDesigns.json'), 'utf8'),
) as Record<string, { criteria: { parts: { value_sets: { title: string }[] }[] }[] } & Record<string, unknown>>;

const codesOf = (m: ShippedMeasure): Codes => new Map(valueSetsOf(m).map((u) => [u, [`http://loinc.org|${u.length}`]]));

describe.each([
  ['CMS122', CMS122],
  ['CMS951', CMS951],
  ['CMS165', CMS165],
])('the measure flow fixture of %s', (key, m) => {
  const kept = fixture[key];
  // Titles come from the value set resources (the fixture kept the official ones); none of what is compared shows them.
  const titles = new Map<string, string>();
  const d = measureDesign({
    measure: m,
    codes: codesOf(m),
    shippedCodes: codesOf(m),
    titles,
    deck: null,
    decksAvailable: false,
    today: new Date('2026-11-27T06:00:00Z'),
  });

  it('has the populations, goal and reading the server gives', () => {
    expect({
      id: kept.id,
      identifier: kept.identifier,
      title: kept.title,
      improvement_notation: kept.improvement_notation,
      goal: kept.goal,
      score_meaning: kept.score_meaning,
      populations: kept.populations,
    }).toEqual({
      id: d.id,
      identifier: d.identifier,
      title: d.title,
      improvement_notation: d.improvement_notation,
      goal: d.goal,
      score_meaning: d.score_meaning,
      populations: d.populations,
    });
  });

  it('names the criteria the server names, with their display names, units and record reads', () => {
    const shape = (
      cs: {
        id: string;
        display_name: string;
        unit: string | null;
        used_by: string[];
        parts: { resource_type: string; value_sets: unknown[] }[];
      }[],
    ) =>
      cs.map((c) => ({
        id: c.id,
        display_name: c.display_name,
        unit: c.unit,
        used_by: c.used_by,
        parts: c.parts.map((p) => [p.resource_type, p.value_sets.length]),
      }));
    expect(shape(kept.criteria as never)).toEqual(shape(d.criteria as never));
  });
});
