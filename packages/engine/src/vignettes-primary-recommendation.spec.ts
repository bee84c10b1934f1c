import { aParameter, anAction, aRule, cond } from './testing/builders';
import { rankFindings, runVignette, vignettePasses } from './vignettes';

const SBP = aParameter('sbp', 'vitals', { display_name: 'Systolic Blood Pressure', units: 'mm[Hg]' });
const HBA1C = aParameter('hba1c', 'lab_range', { display_name: 'HbA1c', units: '%' });

describe('runVignette: fired rules and the primary recommendation', () => {
  const review = aRule('Annual BP review', [cond(SBP.id, '>=', 90)], { priority: 10 });
  const crisis = aRule('Hypertensive crisis', [cond(SBP.id, '>=', 180)], {
    priority: 100,
    actions: [anAction('Emergency', { severity: 'critical' })],
  });
  const twoConditions = aRule('Diabetes with hypertension', [cond(SBP.id, '>=', 140), cond(HBA1C.id, '>=', 6.5)], { priority: 50 });

  it('an SBP of 200 makes the hypertensive crisis primary, above the broader annual review', () => {
    const result = runVignette([review, crisis], [SBP], { [SBP.id]: 200 });
    expect(result).toEqual({ fired: [crisis.id, review.id], primary: crisis.id, undetermined: [] });
  });

  it('a critical rule ranks above a higher-priority medium one', () => {
    const mediumHigh = aRule('Medium but urgent-sounding', [cond(SBP.id, '>=', 90)], { priority: 100 });
    const criticalLow = aRule('Critical', [cond(SBP.id, '>=', 90)], { priority: 0, actions: [anAction('x', { severity: 'critical' })] });
    expect(rankFindings([mediumHigh, criticalLow]).map((r) => r.name)).toEqual(['Critical', 'Medium but urgent-sounding']);
  });

  it('within a tier: priority, then more conditions, then name', () => {
    const a = aRule('B same', [cond(SBP.id, '>=', 90)], { priority: 5 });
    const b = aRule('A same', [cond(SBP.id, '>=', 90)], { priority: 5 });
    const c = aRule('Z two', [cond(SBP.id, '>=', 90), cond(SBP.id, '<', 300)], { priority: 5 });
    const d = aRule('Top', [cond(SBP.id, '>=', 90)], { priority: 9 });
    expect(rankFindings([a, b, c, d]).map((r) => r.name)).toEqual(['Top', 'Z two', 'A same', 'B same']);
  });

  it('a rule whose other input is missing is undetermined, never fired', () => {
    const result = runVignette([twoConditions], [SBP, HBA1C], { [SBP.id]: 150 });
    expect(result).toEqual({ fired: [], primary: null, undetermined: [twoConditions.id] });
  });

  it('passes only on exactly the expected fired set and primary', () => {
    const actual = runVignette([review, crisis], [SBP], { [SBP.id]: 200 });
    expect(vignettePasses({ fired: [review.id, crisis.id], primary: crisis.id }, actual)).toBe(true);
    expect(vignettePasses({ fired: [crisis.id], primary: crisis.id }, actual)).toBe(false);
    expect(vignettePasses({ fired: [review.id, crisis.id], primary: review.id }, actual)).toBe(false);
  });
});
