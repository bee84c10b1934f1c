import type { EngineParameter, EngineRule } from '@cds/engine';
import { ageOn, demographicOf, sexAnswer } from './demographics';
import { searchCodes } from './observations';

const NOW = new Date('2026-11-23T12:00:00Z');
const param = (over: Partial<EngineParameter>): EngineParameter => ({
  id: 'p',
  name: 'x',
  display_name: 'X',
  data_type: 'select',
  ...over,
});

describe('demographics from the Patient resource', () => {
  it('age and sex are known by LOINC code or by name; other parameters are Observations', () => {
    expect(demographicOf(param({ name: 'age_at_visit' }), '30525-0')).toBe('age');
    expect(demographicOf(param({ name: 'Age' }), null)).toBe('age');
    expect(demographicOf(param({ name: 'birth_sex' }), '76689-9')).toBe('sex');
    expect(demographicOf(param({ name: 'gender' }), null)).toBe('sex');
    expect(demographicOf(param({ name: 'hba1c' }), '4548-4')).toBeNull();
  });

  it('whole years from birthDate, counting the birthday itself; a partial date reads as its first day', () => {
    expect(ageOn({ birthDate: '1960-11-23' }, NOW)).toBe(66);
    expect(ageOn({ birthDate: '1960-11-24' }, NOW)).toBe(65);
    expect(ageOn({ birthDate: '1960-12' }, NOW)).toBe(65);
    expect(ageOn({ birthDate: '1960' }, NOW)).toBe(66);
    expect(ageOn({ birthDate: 'soon' }, NOW)).toBeNull();
    expect(ageOn({}, NOW)).toBeNull();
  });

  it('Patient.gender becomes the option whose value or label names it; other and unknown stay unknown', () => {
    const coded = param({
      validation_rules: {
        options: [
          { value: 'F', label: 'Female' },
          { value: 'M', label: 'Male' },
        ],
      },
    });
    expect(sexAnswer({ gender: 'female' }, coded, [], [coded])).toBe('F');
    expect(sexAnswer({ gender: 'male' }, coded, [], [coded])).toBe('M');
    expect(sexAnswer({ gender: 'other' }, coded, [], [coded])).toBeNull();
    expect(sexAnswer({ gender: 'unknown' }, coded, [], [coded])).toBeNull();
    expect(sexAnswer({}, coded, [], [coded])).toBeNull();
    const labelled = param({
      validation_rules: {
        options: [
          { value: 1, label: 'Male' },
          { value: 2, label: 'Female' },
        ],
      },
    });
    expect(sexAnswer({ gender: 'female' }, labelled, [], [labelled])).toBe(2);
    // Options taken from the rules when none are configured.
    const plain = param({ id: 's', name: 'sex', data_type: 'text' });
    const rule: EngineRule = {
      id: 'r',
      name: 'r',
      priority: 1,
      conditions: [{ parameter: 's', operator: '==', value: 'female' }],
      actions: [],
    };
    expect(sexAnswer({ gender: 'female' }, plain, [rule], [plain])).toBe('female');
    expect(sexAnswer({ gender: 'male' }, plain, [rule], [plain])).toBeNull();
  });
});

describe('blood pressure search codes', () => {
  it('systolic and diastolic are searched as themselves and as the panel 85354-9; HbA1c with its IFCC code; other codes alone', () => {
    expect(searchCodes('8480-6')).toEqual(['8480-6', '85354-9']);
    expect(searchCodes('8462-4')).toEqual(['8462-4', '85354-9']);
    expect(searchCodes('4548-4')).toEqual(['4548-4', '59261-8']);
    expect(searchCodes('1558-6')).toEqual(['1558-6']);
  });
});
