import { builtInQuestion } from './built-in-wording';

const q = (displayName: string, category: string | null, dataType: string | null, units: string | null = null) =>
  builtInQuestion({ displayName, name: displayName.replace(/\W+/g, '_'), category, dataType, units });

describe('builtInQuestion', () => {
  it.each([
    ['HbA1c', 'labs', 'number', '%', "What was the patient's most recent HbA1c result (%)?"],
    ['Fasting Glucose', 'labs', 'lab_range', 'mg/dL', "What was the patient's most recent fasting glucose result (mg/dL)?"],
    ['TPO Antibodies', 'labs', 'boolean', null, "Was the patient's most recent TPO antibodies test positive?"],
    ['Systolic Blood Pressure', 'vitals', 'vitals', 'mmHg', "What is the patient's current systolic blood pressure (mmHg)?"],
    ['Age', 'demographics', 'number', 'years', "What is the patient's age (years)?"],
    ['Gestational Diabetes', 'history', 'boolean', null, 'Does the patient have a history of gestational diabetes?'],
    ['Polyuria', 'symptoms', 'boolean', null, 'Is the patient currently experiencing polyuria?'],
    ['Last Eye Exam', 'history', 'date', null, "What is the date of the patient's last eye exam?"],
    ['BMI', 'vitals', 'calculated', 'kg/m²', "What is the patient's calculated BMI (kg/m²)?"],
    ['Weight (lb)', 'vitals', 'number', 'lb', "What is the patient's current weight (lb)?"],
    // Stored as UCUM codes, asked in the form clinicians write.
    ['Systolic Blood Pressure', 'vitals', 'vitals', 'mm[Hg]', "What is the patient's current systolic blood pressure (mmHg)?"],
    ['BMI', 'vitals', 'calculated', 'kg/m2', "What is the patient's calculated BMI (kg/m²)?"],
    ['Microalbumin', 'labs', 'lab_range', 'mg/g', "What was the patient's most recent microalbumin result (mg/g creatinine)?"],
  ])('%s (%s, %s, %s)', (displayName, category, dataType, units, expected) => {
    expect(q(displayName, category, dataType, units)).toBe(expected);
  });

  it('words an unknown parameter generically, as one question', () => {
    expect(q('Smoking status?', null, null)).toBe("What is the patient's smoking status?");
  });

  it('is deterministic', () => {
    const input = { displayName: 'TSH', name: 'TSH', category: 'labs', dataType: 'number', units: 'mIU/L' };
    expect(builtInQuestion(input)).toBe(builtInQuestion({ ...input }));
  });
});
