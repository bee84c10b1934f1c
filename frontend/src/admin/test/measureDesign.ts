import type { MeasureDesignJson, MeasureDesignSummaryJson } from '@cds/contracts';

/** CMS122 as the designer's API gives it: shipped version 1 published, no draft (value sets changed since shipped). */
export const ID = 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR';
export const summary: MeasureDesignSummaryJson = {
  id: ID,
  identifier: 'CMS122',
  title: 'Diabetes: Glycemic Status Assessment Greater Than 9%',
  version: 'CMS122-0123456789abcdef01234567',
  changed_since_shipped: true,
  rule_count: 8,
  criterion_count: 10,
  findings: { error: 0, warning: 1, info: 0 },
  vignettes: { agreed: 40, total: 40 },
  published_version: '1 (CMS as shipped)',
  has_draft: false,
};
export const design: MeasureDesignJson = {
  id: ID,
  identifier: 'CMS122',
  title: summary.title,
  source: 'CMS122v12 (2024 QI-Core eCQM)',
  improvement_notation: 'decrease',
  goal: 'Most recent HbA1c or GMI in the period at or below 9 %',
  score_meaning: 'Share of eligible patients with HbA1c or GMI above 9 %',
  measurement_period: { default: 'calendar_year', start: '2026-01-01', end: '2026-12-31', text: 'A calendar year.' },
  version: {
    hash: summary.version,
    shipped_hash: 'CMS122-ffffffffffffffffffffffff',
    changes: ['HbA1c Laboratory Test (2.16.840.1.113883.3.464.1003.198.12.1013): 13 codes loaded, 12 shipped (1 added, 0 removed)'],
    value_sets: [
      {
        url: 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.198.12.1013',
        oid: '2.16.840.1.113883.3.464.1003.198.12.1013',
        title: 'HbA1c Laboratory Test',
        codes: 13,
        shipped_codes: 12,
        added: 1,
        removed: 0,
      },
    ],
  },
  populations: [
    {
      code: 'numerator',
      label: 'Numerator',
      meaning: 'Denominator patients, not excluded, for whom any of these rules holds.',
      rules: [
        {
          id: 'cms122-num-elevated',
          name: 'Most recent HbA1c or GMI > 9 %',
          text: 'Most recent HbA1c or GMI (lowest that day) > 9 %',
          conditions: [
            {
              parameter_id: 'glycemic_status_lowest',
              operator: 'greater_than',
              value: 9,
              text: 'Most recent HbA1c or GMI (lowest that day) > 9 %',
            },
          ],
        },
        {
          id: 'cms122-num-none',
          name: 'No glycemic status assessment in the measurement period',
          text: 'Glycemic status assessment (HbA1c or GMI) in the measurement period = No',
          conditions: [
            {
              parameter_id: 'glycemic_status_done',
              operator: 'equals',
              value: false,
              text: 'Glycemic status assessment (HbA1c or GMI) in the measurement period = No',
            },
          ],
        },
      ],
    },
  ],
  criteria: [
    {
      id: 'glycemic_status_lowest',
      display_name: 'Most recent HbA1c or GMI (lowest that day)',
      data_type: 'number',
      unit: '%',
      text: 'Lowest result on the latest day',
      parts: [
        {
          resource_type: 'Observation',
          value_sets: [{ oid: '2.16.840.1.113883.3.464.1003.198.12.1013', title: 'HbA1c Laboratory Test' }],
          codes: ['http://loinc.org|97506-0'],
          statuses: ['final', 'amended'],
          window: 'ends during the measurement period',
          take: 'lowest_on_latest_day',
        },
      ],
      used_by: ['cms122-num-elevated'],
    },
  ],
  analysis: {
    summary: { error: 0, warning: 1, info: 0 },
    findings: [
      {
        code: 'duplicate_rule',
        severity: 'warning',
        rule_ids: ['a', 'b'],
        message: 'Rules "a" and "b" are the same.',
        population: 'Numerator',
      },
    ],
  },
  vignettes: { available: false, deck: null, agreed: 0, total: 0, cases: [] },
  published: {
    measure_id: ID,
    version: 1,
    label: '1 (CMS as shipped)',
    status: 'published',
    source: 'shipped',
    revision: 1,
    note: null,
    created: null,
    updated: null,
    published: null,
  },
  draft: null,
};
