import type { MeasureOutcome, Tri } from '@cds/engine';
import { CMS122 } from './cms122';
import { CMS951 } from './cms951';
import { ageAt, patientName, standing } from './panel';

const populations = (ip: Tri, den: Tri, denex: Tri, num: Tri): MeasureOutcome['populations'] => ({
  'initial-population': ip,
  denominator: den,
  'denominator-exclusion': denex,
  'denominator-exception': false,
  numerator: num,
  'numerator-exclusion': false,
});

describe('where a patient stands on a measure', () => {
  it('CMS122 (inverse): in the numerator (HbA1c above 9 %, no result or none) is the gap; outside it the goal is met', () => {
    expect(standing(populations(true, true, false, true), CMS122)).toBe('gap');
    expect(standing(populations(true, true, false, false), CMS122)).toBe('met');
  });

  it('CMS951 (proportion): outside the numerator is the gap; in it the goal is met', () => {
    expect(standing(populations(true, true, false, false), CMS951)).toBe('gap');
    expect(standing(populations(true, true, false, true), CMS951)).toBe('met');
  });

  it('an exclusion wins over the numerator; outside the initial population is not in the measure at all', () => {
    expect(standing(populations(true, true, true, false), CMS122)).toBe('excluded');
    expect(standing(populations(false, false, false, false), CMS951)).toBeNull();
  });

  it('anything the record leaves open on the way is undetermined, never met or a gap', () => {
    for (const m of [CMS122, CMS951]) {
      expect(standing(populations('unknown', 'unknown', false, false), m)).toBe('undetermined');
      expect(standing(populations(true, true, 'unknown', 'unknown'), m)).toBe('undetermined');
      expect(standing(populations(true, true, false, 'unknown'), m)).toBe('undetermined');
    }
  });
});

describe('the gap row', () => {
  it('names the patient from the official name, else the first; the id when there is none', () => {
    expect(
      patientName(
        {
          name: [
            { use: 'nickname', given: ['Addy'] },
            { use: 'official', given: ['Ada', 'M'], family: 'Hightower' },
          ],
        },
        'p1',
      ),
    ).toBe('Ada M Hightower');
    expect(patientName({ name: [{ text: 'Bo Adler' }] }, 'p2')).toBe('Bo Adler');
    expect(patientName({}, 'p3')).toBe('Patient p3');
  });

  it('gives the age in whole years at the end of the period: the birthday on the last day counts', () => {
    expect(ageAt('1960-12-31', '2026-12-31')).toBe(66);
    expect(ageAt('1961-01-01', '2026-12-31')).toBe(65);
    expect(ageAt('1960', '2026-12-31')).toBe(66);
    expect(ageAt(undefined, '2026-12-31')).toBeNull();
  });
});
