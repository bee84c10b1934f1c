import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MeasureDraftRequestJson, MeasureImpactJson } from '@cds/contracts';
import { json, renderApp } from '../../test/helpers';
import { adminApiMock } from '../test/adminHelpers';
import { design, ID, summary } from '../test/measureDesign';

// The first render loads the admin console and the page lazily: slow on a loaded machine.
describe('Quality measures in the designer (admin console)', { timeout: 60_000 }, () => {
  it('lists each measure with its version, and opens CMS122 with its numerator rules read as alternatives', async () => {
    adminApiMock({ 'GET /api/measures/designs': json(200, [summary]), [`GET /api/measures/designs/${ID}`]: json(200, design) });
    renderApp('/admin/measures');
    const card = await screen.findByRole('listitem', { name: /CMS122/ }, { timeout: 40_000 });
    expect(within(card).getByText('Value sets changed since shipped')).toBeInTheDocument();
    expect(within(card).getByText('1 warning')).toBeInTheDocument();
    expect(within(card).getByText('40 of 40 official cases agree')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('link'));
    const numerator = await screen.findByRole('region', { name: 'Numerator' }, { timeout: 20_000 });
    expect(within(numerator).getByText('Most recent HbA1c or GMI (lowest that day) > 9 %')).toBeInTheDocument();
    expect(within(numerator).getByText('or')).toBeInTheDocument();
  });

  it('shows the HbA1c criterion by value set name and OID, the version change, and the analysis finding under its population', async () => {
    adminApiMock({ [`GET /api/measures/designs/${ID}`]: json(200, design) });
    renderApp(`/admin/measures/${ID}`);
    await userEvent.click(await screen.findByRole('tab', { name: 'Record criteria' }, { timeout: 40_000 }));
    await userEvent.click(screen.getByRole('button', { name: /Most recent HbA1c or GMI \(lowest that day\) \(%\)/ }));
    expect(screen.getByText('HbA1c Laboratory Test')).toBeInTheDocument();
    expect(screen.getByText('(OID 2.16.840.1.113883.3.464.1003.198.12.1013)')).toBeInTheDocument();
    expect(screen.getByText('Lowest value on the latest day')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Version' }));
    expect(screen.getByText(/13 codes loaded, 12 shipped \(1 added, 0 removed\)/)).toBeInTheDocument();
    expect(screen.getByText('+1 −0')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Analysis (1)' }));
    expect(screen.getByRole('list', { name: 'Analysis findings' })).toHaveTextContent('Numerator: Rules "a" and "b" are the same.');
    await userEvent.click(screen.getByRole('tab', { name: 'Vignettes' }));
    expect(screen.getByText(/official test cases for CMS122 are not installed/)).toBeInTheDocument();
  });

  it('previews a draft with the numerator cut-point at 10 % and a rule left out: who would change population', async () => {
    const impact: MeasureImpactJson = {
      measure_id: ID,
      period: { start: '2026-01-01', end: '2026-12-31' },
      versions: { current: summary.version, draft: 'CMS122-aaaaaaaaaaaaaaaaaaaaaaaa' },
      analysis: { summary: { error: 0, warning: 0, info: 0 }, findings: [] },
      patients: 3,
      current_from: { stored: 0, evaluated: 3 },
      changed: 1,
      counts: [{ population: 'numerator', label: 'Numerator', before: 2, after: 1 }],
      changed_patients: [
        {
          patient_id: 'p1',
          name: 'Nora Ames',
          before: { numerator: true },
          after: { numerator: false },
          changes: ['Numerator: Yes → No'],
        },
      ],
    };
    let sent: MeasureDraftRequestJson | undefined;
    adminApiMock({
      [`GET /api/measures/designs/${ID}`]: json(200, design),
      [`POST /api/measures/designs/${ID}/impact`]: (req) => {
        sent = req.body as MeasureDraftRequestJson;
        return json(200, impact);
      },
    });
    renderApp(`/admin/measures/${ID}`);
    await userEvent.click(await screen.findByRole('tab', { name: 'Draft and impact' }, { timeout: 40_000 }));
    const cut = screen.getByRole('spinbutton', { name: 'Most recent HbA1c or GMI > 9 %: Most recent HbA1c or GMI (lowest that day) >' });
    await userEvent.clear(cut);
    await userEvent.type(cut, '10');
    await userEvent.click(within(screen.getByRole('region', { name: /Draft rule No glycemic status/ })).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Preview impact' }));
    const result = await screen.findByRole('region', { name: 'Impact of the draft' });
    expect(result).toHaveTextContent('1 of 3 stored patients would change population for 2026-01-01 to 2026-12-31.');
    expect(within(result).getByRole('list', { name: 'Patients who would change population' })).toHaveTextContent(
      'Nora AmesNumerator: Yes → No',
    );
    expect(result).toHaveTextContent('Now: all 3 patients evaluated now (no current stored results; a measure run stores them).');
    expect(sent?.rules.map((r) => [r.id, r.conditions[0].value])).toEqual([['cms122-num-elevated', 10]]);
    expect(sent).toMatchObject({ periodStart: '2026-01-01', periodEnd: '2026-12-31' });
  });

  it('says so when the measure does not exist', async () => {
    adminApiMock({ 'GET /api/measures/designs/Nope': json(404, { statusCode: 404, code: 'not_found', message: 'Measure not found' }) });
    renderApp('/admin/measures/Nope');
    expect(await screen.findByText('Measure not found', {}, { timeout: 40_000 })).toBeInTheDocument();
  });
});
