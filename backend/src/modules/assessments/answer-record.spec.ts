import type { AnswerDetailJson } from '@cds/contracts';
import type { EngineParameter } from '@cds/engine';
import type { DomainError } from '../../common/errors';
import { checkAgainstAnswers, checkObservedAt, recordAnswer, repeatsAnswer } from './answer-record';
import type { AnswerDto } from './assessments.dto';

const hba1c = (validation_rules: Record<string, unknown>): EngineParameter => ({
  id: 'p1',
  name: 'hba1c',
  display_name: 'HbA1c',
  data_type: 'lab_range',
  units: '%',
  validation_rules: { min: 3, max: 20, units_accepted: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152 }], ...validation_rules },
});
const bands = [
  { label: '< 5.7 %', value: { type: 'range', min: null, max: 5.7, min_inclusive: false, max_inclusive: false } },
  { label: '≥ 6.45 %', value: { type: 'range', min: 6.45, max: null, min_inclusive: true, max_inclusive: false } },
];
const at = new Date('2026-11-23T10:00:00Z');
const typed = (value: number, unit?: string) => ({ parameter_id: 'p1', value, ...(unit ? { unit } : {}) }) as AnswerDto;

describe('recordAnswer: the precision a converted value is shown against', () => {
  it('a converted answer carries the declared decimals', () => {
    expect(recordAnswer(hba1c({ decimals: 1 }), bands, typed(58, 'mmol/mol'), at)).toMatchObject({ entered_value: 58, decimals: 1 });
  });

  it("without declared decimals, the cut-points' precision", () => {
    expect(recordAnswer(hba1c({}), bands, typed(58, 'mmol/mol'), at)).toMatchObject({ decimals: 2 });
  });

  it('an answer in the parameter unit is stored as before, without decimals', () => {
    expect(recordAnswer(hba1c({ decimals: 1 }), bands, typed(6.5), at)).not.toHaveProperty('decimals');
  });
});

describe('a diastolic pressure at or above the systolic is refused, naming both', () => {
  const bp = (id: string, display_name: string, value: unknown, label: string) =>
    ({
      parameter_id: id,
      parameter_name: id,
      display_name,
      units: 'mm[Hg]',
      value,
      unit: 'mm[Hg]',
      entered_as: 'typed',
      label,
      answered_at: at.toISOString(),
    }) as AnswerDetailJson;
  const codes = async () =>
    new Map([
      ['sbp', '8480-6'],
      ['dbp', '8462-4'],
    ]);
  const refusal = (p: Promise<void>) =>
    p.then(
      () => null,
      (e: DomainError) => ({ code: e.code, message: e.message }),
    );

  it('SBP 90 then DBP 150: 422 out_of_range, nothing stored', async () => {
    expect(
      await refusal(checkAgainstAnswers(bp('dbp', 'Diastolic BP', 150, '150 mmHg'), [bp('sbp', 'Systolic BP', 90, '90 mmHg')], codes)),
    ).toEqual({
      code: 'out_of_range',
      message: 'Diastolic BP (150 mmHg) must be below Systolic BP (90 mmHg); check both values',
    });
  });

  it('either order, and equal pressures too; 120/80, an unknown or a band that could agree is accepted', async () => {
    expect(
      await refusal(checkAgainstAnswers(bp('sbp', 'Systolic BP', 90, '90 mmHg'), [bp('dbp', 'Diastolic BP', 90, '90 mmHg')], codes)),
    ).toMatchObject({ code: 'out_of_range' });
    expect(
      await refusal(checkAgainstAnswers(bp('dbp', 'Diastolic BP', 80, '80 mmHg'), [bp('sbp', 'Systolic BP', 120, '120 mmHg')], codes)),
    ).toBeNull();
    expect(
      await refusal(
        checkAgainstAnswers(bp('dbp', 'Diastolic BP', 'unknown', 'Not available'), [bp('sbp', 'Systolic BP', 90, '90 mmHg')], codes),
      ),
    ).toBeNull();
    const band = { type: 'range', min: 80, max: 130, min_inclusive: true, max_inclusive: false };
    expect(
      await refusal(
        checkAgainstAnswers(bp('dbp', 'Diastolic BP', band, '80 to < 130'), [bp('sbp', 'Systolic BP', 100, '100 mmHg')], codes),
      ),
    ).toBeNull();
  });

  it('parameters without the blood-pressure LOINC codes are never compared', async () => {
    const none = async () => new Map<string, string>();
    expect(
      await refusal(checkAgainstAnswers(bp('dbp', 'Diastolic BP', 150, '150'), [bp('sbp', 'Systolic BP', 90, '90')], none)),
    ).toBeNull();
  });
});

describe('a typed value observed longer ago than its lookback is stale: refused, never a current finding', () => {
  const refusal = (p: Promise<void>) =>
    p.then(
      () => null,
      (e: DomainError) => ({ code: e.code, message: e.message }),
    );
  const a1c = hba1c({});
  const withCode = async () => new Map([['p1', '4548-4']]);
  const observedOn = (observed_at: string, value: unknown = 7.2) => ({ parameter_id: 'p1', value, observed_at }) as AnswerDto;

  it('an HbA1c observed in 2019 is refused naming its date and the 90-day lookback of 4548-4', async () => {
    expect(await refusal(checkObservedAt(a1c, observedOn('2019-03-01'), at, withCode))).toEqual({
      code: 'out_of_range',
      message: 'HbA1c observed on 2019-03-01 is older than 90 days: enter a current value, or Not available',
    });
  });

  it('a recent one, one without a date, Not available, or the parameter own lookback_days are honoured', async () => {
    expect(await refusal(checkObservedAt(a1c, observedOn('2026-10-01'), at, withCode))).toBeNull();
    expect(await refusal(checkObservedAt(a1c, { parameter_id: 'p1', value: 7.2 } as AnswerDto, at, withCode))).toBeNull();
    expect(await refusal(checkObservedAt(a1c, observedOn('2019-03-01', 'unknown'), at, withCode))).toBeNull();
    expect(await refusal(checkObservedAt(hba1c({ lookback_days: 30 }), observedOn('2026-10-01'), at, withCode))).toMatchObject({
      message: expect.stringContaining('older than 30 days'),
    });
  });
});

describe('a repeated request is recognised whatever the spelling of its unit', () => {
  it('SBP 186 sent again as "mmHg" repeats the answer stored in mm[Hg]', () => {
    const last = {
      parameter_id: 'sbp',
      parameter_name: 'sbp',
      display_name: 'Systolic BP',
      units: 'mm[Hg]',
      value: 186,
      unit: 'mm[Hg]',
      entered_as: 'typed',
      label: '186 mmHg',
      answered_at: at.toISOString(),
    } as AnswerDetailJson;
    expect(repeatsAnswer(last, { parameter_id: 'sbp', value: 186, unit: 'mmHg' } as AnswerDto)).toBe(true);
    expect(repeatsAnswer(last, { parameter_id: 'sbp', value: 186 } as AnswerDto)).toBe(true);
    expect(repeatsAnswer(last, { parameter_id: 'sbp', value: 186, unit: 'mg/dL' } as AnswerDto)).toBe(false);
  });
});
