import { compileRuleSet } from './compile';
import { generatePopulation, seededRandom } from './impact';
import type { Answers, EngineParameter, EngineRule } from './types';

const parameters: EngineParameter[] = [
  { id: 'p-a1c', name: 'hba1c', display_name: 'HbA1c', data_type: 'number' },
  { id: 'p-fpg', name: 'fpg', display_name: 'Fasting glucose', data_type: 'number' },
  { id: 'p-sympt', name: 'symptoms', display_name: 'Symptoms', data_type: 'boolean' },
  { id: 'p-type', name: 'type', display_name: 'Diabetes type', data_type: 'select' },
  { id: 'p-note', name: 'note', display_name: 'Note', data_type: 'text' },
  { id: 'p-seen', name: 'seen', display_name: 'Last seen', data_type: 'date' },
];

function rulesOf(count: number): EngineRule[] {
  const rnd = seededRandom(count);
  const conditionOn = (k: number) => {
    switch (k % 6) {
      case 0:
        return { parameter: 'hba1c', operator: '>=', value: 6.5 };
      case 1:
        return { parameter: 'fpg', operator: '<', value: Math.round(rnd() * 200) };
      case 2:
        return { parameter: 'symptoms', operator: 'equals', value: rnd() < 0.5 };
      case 3:
        return { parameter: 'type', operator: 'not_equals', value: 'Type 2' };
      case 4:
        return { parameter: 'note', operator: 'contains', value: 'thirst' };
      default:
        return { parameter: 'seen', operator: 'within_days', value: 90 };
    }
  };
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    name: `Rule ${i}`,
    priority: i,
    actions: [],
    conditions: [0, 1, 2].map((k) => ({ ...conditionOn(Math.floor(rnd() * 6) + k), logic: k === 0 && i % 3 === 0 ? 'OR' : 'AND' })),
  }));
}

const answersOf = (i: number): Answers => {
  const all: Answers = {
    'p-a1c': i % 7 === 0 ? { type: 'range', min: 6, max: 7 } : 5 + (i % 40) / 10,
    'p-fpg': i % 5 === 0 ? 'unknown' : 80 + i,
    'p-sympt': i % 2 === 0,
    'p-type': i % 3 === 0 ? 'Type 2' : 'Type 1',
    'p-note': i % 4 === 0 ? 'Thirst at night' : ' ',
    'p-seen': i % 6 === 0 ? '2024-02-30' : `2024-0${1 + (i % 9)}-1${i % 10}`,
  };
  // Sparse: every patient leaves some questions unanswered, no two the same way.
  return Object.fromEntries(Object.entries(all).filter((_, k) => (i >> k) % 2 === 0 || k === i % 6));
};

describe('a population evaluated at once (evaluateMany)', () => {
  it.each([10, 600])('gives each of 600 patients exactly the results of evaluating them one by one (%i rules)', (ruleCount) => {
    const rules = rulesOf(ruleCount);
    const compiled = compileRuleSet(rules, parameters);
    const patients = Array.from({ length: 600 }, (_, i) => answersOf(i));
    for (const options of [{ now: '2024-06-01' }, { now: '2024-06-01', unanswered: 'skip' as const }]) {
      const all = compiled.evaluateMany(patients, new Uint8Array(patients.length * rules.length), options);
      patients.forEach((answers, p) => {
        const one = compiled.evaluateInto(answers, new Uint8Array(rules.length), options);
        expect({ patient: p, results: [...all.subarray(p * rules.length, (p + 1) * rules.length)] }).toEqual({
          patient: p,
          results: [...one],
        });
      });
    }
  });

  it('refuses an output too small for every patient', () => {
    const rules = rulesOf(3);
    expect(() => compileRuleSet(rules, parameters).evaluateMany([{}, {}], new Uint8Array(5))).toThrow(RangeError);
  });

  it('agrees with the generated population the impact preview uses', () => {
    const rules = rulesOf(400);
    const compiled = compileRuleSet(rules, parameters);
    const patients = generatePopulation(rules, parameters, { size: 300, seed: 7 }).map((p) => p.answers);
    const all = compiled.evaluateMany(patients, new Uint8Array(patients.length * rules.length));
    patients.forEach((answers, p) => {
      expect([...all.subarray(p * rules.length, (p + 1) * rules.length)]).toEqual([
        ...compiled.evaluateInto(answers, new Uint8Array(rules.length)),
      ]);
    });
  });
});
