import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MeasureDraftSaveJson } from '@cds/contracts';
import { json, renderApp } from '../../test/helpers';
import { adminApiMock } from '../test/adminHelpers';
import { ID } from '../test/measureDesign';
import { cms122 } from '../test/measureFlowDesigns';

// The first render loads the admin console and the page lazily: slow on a loaded machine.
describe("A measure's flow and its draft form are one draft (admin console)", { timeout: 60_000 }, () => {
  it("CMS122's numerator cut-point set to 8 % in the flow is the draft form's, and the save sends it", async () => {
    let saved: MeasureDraftSaveJson | undefined;
    adminApiMock({
      [`GET /api/measures/designs/${ID}`]: json(200, cms122),
      [`PUT /api/measures/designs/${ID}/draft`]: (req) => {
        saved = req.body as MeasureDraftSaveJson;
        return json(200, { ...cms122.published, version: 2, label: '2 (local)', status: 'draft', source: 'local' });
      },
    });
    renderApp(`/admin/measures/${ID}`);
    await userEvent.click(await screen.findByRole('tab', { name: 'Flow' }, { timeout: 40_000 }));
    const gap = await screen.findByRole('region', { name: 'Numerator: the gap' });
    await userEvent.click(within(gap).getByRole('button', { name: 'Edit cut-points: Numerator: the gap' }));
    const cut = within(screen.getByRole('region', { name: 'Cut-points: Numerator: the gap' })).getByRole('spinbutton');
    await userEvent.clear(cut);
    await userEvent.type(cut, '8');
    expect(within(gap).getByLabelText('cut-point changed from 9 % to 8 %')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Open the draft' }));
    expect(screen.getByRole('tab', { name: 'Draft and impact' })).toHaveAttribute('aria-selected', 'true');
    const form = screen.getByRole('spinbutton', { name: 'Most recent HbA1c or GMI > 8 %: Most recent HbA1c or GMI (lowest that day) >' });
    expect(form).toHaveValue(8);
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(saved).toBeDefined());
    expect(saved?.rules.find((r) => r.id === 'cms122-num-elevated')).toMatchObject({
      name: 'Most recent HbA1c or GMI > 8 %',
      conditions: [{ parameter: 'glycemic_status_lowest', operator: 'greater_than', value: 8 }],
    });

    // Back in the flow, the form's own edit shows there too.
    await userEvent.clear(form);
    await userEvent.type(form, '7.5');
    await userEvent.click(screen.getByRole('tab', { name: 'Flow' }));
    expect(
      within(await screen.findByRole('region', { name: 'Numerator: the gap' })).getByLabelText('cut-point changed from 9 % to 7.5 %'),
    ).toBeInTheDocument();
  });
});
