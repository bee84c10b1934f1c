import { FHIR_SYSTEM } from '@cds/contracts';
import { DomainError } from '../../common/errors';
import { answerInput, parseResponse, questionnaireOf } from './questionnaire-response';

const OPTIONS = 'https://cds.example.org/api/fhir/CodeSystem/answer-option';
const band = { type: 'range', min: 6.5, max: null, min_inclusive: true, max_inclusive: false } as const;
const options = [
  { label: '< 6.5 %', value: { ...band, min: null, max: 6.5, min_inclusive: false } },
  { label: '≥ 6.5 %', value: band },
  { label: 'Not available', value: 'unknown' },
];

function code(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof DomainError ? e.code : 'other';
  }
  return undefined;
}

describe('questionnaireOf', () => {
  it('reads the id and version of a canonical or relative reference', () => {
    expect(questionnaireOf('https://x.org/api/fhir/Questionnaire/abc|3')).toEqual({ id: 'abc', version: 3 });
    expect(questionnaireOf('Questionnaire/abc')).toEqual({ id: 'abc', version: null });
    expect(questionnaireOf('https://x.org/api/fhir/Questionnaire/abc|draft')).toEqual({ id: 'abc', version: -1 });
    expect(questionnaireOf('https://x.org/api/fhir/PlanDefinition/abc')).toBeNull();
  });
});

describe('answerInput', () => {
  it('maps each answer to what the clinical form would send', () => {
    expect(answerInput({ valueQuantity: { value: 53, system: FHIR_SYSTEM.ucum, code: 'mmol/mol' } }, options, OPTIONS, 'a')).toEqual({
      value: 53,
      unit: 'mmol/mol',
    });
    expect(answerInput({ valueDecimal: 7.1 }, options, OPTIONS, 'a')).toEqual({ value: 7.1 });
    expect(answerInput({ valueCoding: { system: OPTIONS, code: '2' } }, options, OPTIONS, 'a')).toEqual({ value: band });
    expect(answerInput({ valueCoding: { system: FHIR_SYSTEM.dataAbsentReason, code: 'asked-unknown' } }, options, OPTIONS, 'a')).toEqual({
      value: 'unknown',
    });
    expect(answerInput({ valueBoolean: false }, options, OPTIONS, 'a')).toEqual({ value: false });
  });

  it('refuses what is not one answer of a supported type', () => {
    expect(code(() => answerInput({}, options, OPTIONS, 'a'))).toBe('invalid_fhir_resource');
    expect(code(() => answerInput({ valueDecimal: 1, valueInteger: 1 }, options, OPTIONS, 'a'))).toBe('invalid_fhir_resource');
    expect(code(() => answerInput({ valueCoding: { system: OPTIONS, code: '3' } }, options, OPTIONS, 'a'))).toBe('invalid_fhir_resource');
    expect(code(() => answerInput({ valueCoding: { system: OPTIONS, code: '0' } }, options, OPTIONS, 'a'))).toBe('invalid_fhir_resource');
    expect(code(() => answerInput({ valueQuantity: { value: 1, system: 'http://snomed.info/sct' } }, options, OPTIONS, 'a'))).toBe(
      'invalid_fhir_resource',
    );
    expect(code(() => answerInput({ valueDecimal: '7' }, options, OPTIONS, 'a'))).toBe('invalid_fhir_resource');
  });
});

describe('parseResponse', () => {
  const qr = { resourceType: 'QuestionnaireResponse', questionnaire: 'Questionnaire/abc', status: 'in-progress' };

  it('takes the response itself or SDC Parameters with it as "in"; a data-absent item is one Not available', () => {
    const item = {
      linkId: 'p1',
      extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'asked-unknown' }],
    };
    const parsed = parseResponse({ resourceType: 'Parameters', parameter: [{ name: 'in', resource: { ...qr, item: [item] } }] });
    expect(parsed.questionnaire).toBe('Questionnaire/abc');
    expect(parsed.items[0].answers).toEqual([{ valueCoding: { system: FHIR_SYSTEM.dataAbsentReason } }]);
  });

  it("reads SDC's adaptive form: the contained Questionnaire names the one it was derived from", () => {
    const contained = [{ resourceType: 'Questionnaire', id: 'q', derivedFrom: ['https://x.org/api/fhir/Questionnaire/abc|2'] }];
    expect(parseResponse({ ...qr, questionnaire: '#q', contained }).questionnaire).toBe('https://x.org/api/fhir/Questionnaire/abc|2');
    expect(code(() => parseResponse({ ...qr, questionnaire: '#other', contained }))).toBe('invalid_fhir_resource');
  });

  it('refuses malformed input with invalid_fhir_resource', () => {
    for (const body of [
      null,
      'x',
      { resourceType: 'Patient' },
      { ...qr, questionnaire: 3 },
      { ...qr, item: {} },
      { ...qr, item: [{}] },
      { ...qr, item: [{ linkId: 'a', item: [] }] },
      { ...qr, item: [{ linkId: 'a', answer: [1] }] },
      { ...qr, authored: '2026-11-23' },
      { ...qr, extension: 5 },
      { ...qr, item: [{ linkId: 'a', extension: {} }] },
    ]) {
      expect(code(() => parseResponse(body))).toBe('invalid_fhir_resource');
    }
  });
});
