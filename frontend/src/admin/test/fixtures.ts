import type { ParameterJson, RuleJson, RuleSetJson } from '@cds/contracts';

export function parameter(o: Partial<ParameterJson> = {}): ParameterJson {
  return {
    id: 'p-1',
    name: 'hba1c',
    display_name: 'HbA1c',
    description: 'Glycated haemoglobin',
    data_type: 'lab_range',
    category: 'labs',
    units: '%',
    is_required: true,
    is_template: false,
    template_name: null,
    is_diabetes_specific: false,
    version: 2,
    is_active: true,
    validation_rules: {},
    loinc_code: null,
    question_text: 'What is the HbA1c (%)?',
    question_override: null,
    polished_question: 'What is the HbA1c (%)?',
    polished_provider: 'built-in',
    polished_input_hash: null,
    polished_at: '2025-03-01T10:00:00.000Z',
    created_by: null,
    created_at: '2025-03-01T10:00:00.000Z',
    updated_at: '2025-03-01T10:00:00.000Z',
    ...o,
  };
}

export function ruleSet(o: Partial<RuleSetJson> = {}): RuleSetJson {
  return {
    id: 'rs-1',
    name: 'Glycaemic control',
    description: 'HbA1c based rules',
    source: null,
    is_active: true,
    is_published: false,
    is_template: false,
    version: 1,
    latest_version: null,
    published_at: null,
    rule_count: 1,
    content_pack: null,
    created_by: null,
    created_at: '2025-01-05T10:00:00.000Z',
    updated_at: '2025-01-05T10:00:00.000Z',
    ...o,
  };
}

export function rule(o: Partial<RuleJson> = {}): RuleJson {
  return {
    id: 'r-1',
    rule_set_id: 'rs-1',
    name: 'Poor control',
    description: 'HbA1c above target',
    source: null,
    priority: 10,
    conditions: [{ id: 'c1', type: 'parameter', parameter: 'p-1', operator: 'greater_than', value: 7, logic: 'AND' }],
    actions: [{ id: 'a1', type: 'recommendation', severity: 'high', message: 'Intensify therapy' }],
    is_active: true,
    created_by: null,
    created_at: '2025-01-06T10:00:00.000Z',
    updated_at: '2025-01-06T10:00:00.000Z',
    ...o,
  };
}
