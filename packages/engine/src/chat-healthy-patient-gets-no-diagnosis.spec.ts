import { CHAT_NO_MATCH, chatStep } from './chat';
import { aRule, cond, GLUCOSE, HBA1C } from './testing/builders';
import type { AnswerValue, ChatStep } from './types';

/**
 * Issue 9: with rules on "hba1c ≥ 6.5" and "fasting_glucose ≥ 126", the spec's chat offered only
 * those two buttons, so a healthy patient answered through the UI ended at a diagnosis. The
 * partition offers the complement band.
 */
describe('Chat: a healthy patient answered through the options ends with no diagnosis', () => {
  const rules = [
    aRule('Diabetes by A1c', [cond(HBA1C.id, '>=', 6.5)], {
      actions: [{ type: 'recommendation', severity: 'high', message: 'Diagnose T2D' }],
    }),
    aRule('Diabetes by fasting glucose', [cond(GLUCOSE.id, '>=', 126)], {
      actions: [{ type: 'recommendation', severity: 'high', message: 'Diagnose T2D' }],
    }),
  ];
  const parameters = [HBA1C, GLUCOSE];

  function run(pick: (labels: string[]) => string): { steps: ChatStep[]; labels: string[][] } {
    const answers: Record<string, AnswerValue> = {};
    const steps: ChatStep[] = [];
    const labels: string[][] = [];
    for (let step = chatStep(rules, parameters, answers); ; step = chatStep(rules, parameters, answers)) {
      steps.push(step);
      if (step.status !== 'question') return { steps, labels };
      const options = step.question.options;
      labels.push(options.map((o) => o.label));
      const chosen = options.find((o) => o.label === pick(options.map((x) => x.label)))!;
      answers[step.question.parameter_id] = chosen.value as AnswerValue;
    }
  }

  it('offers the complement band for each threshold', () => {
    const { labels } = run((l) => l[0]);
    expect(labels).toEqual([
      ['HbA1c < 6.5 %', 'HbA1c ≥ 6.5 %', 'Not available'],
      ['Fasting Glucose < 126 mg/dL', 'Fasting Glucose ≥ 126 mg/dL', 'Not available'],
    ]);
  });

  it('ends with the no-match message when both values are below the thresholds', () => {
    const { steps } = run((l) => l[0]);
    expect(steps.at(-1)).toMatchObject({
      status: 'completed',
      message: `${CHAT_NO_MATCH}: HbA1c < 6.5 % is below 6.5 %; Fasting Glucose < 126 mg/dL is below 126 mg/dL.`,
      rule: null,
      findings: [],
      undetermined_rules: [],
    });
  });

  it('does not diagnose from "Not available": the rules are listed as undetermined instead', () => {
    const { steps } = run(() => 'Not available');
    expect(steps.at(-1)).toMatchObject({
      status: 'completed',
      message: `${CHAT_NO_MATCH}, and the answers ruled none out. 2 rules could not be evaluated for missing values: no finding is not a negative finding.`,
      rule: null,
      findings: [],
    });
    const last = steps.at(-1)!;
    expect(last.status === 'completed' && last.undetermined_rules.map((r) => r.unknown_parameters[0].reason)).toEqual([
      'unknown_answer',
      'unknown_answer',
    ]);
  });
});
