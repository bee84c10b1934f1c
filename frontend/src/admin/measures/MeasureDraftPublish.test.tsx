import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type {
  MeasureDesignJson,
  MeasureDraftSaveJson,
  MeasureImpactJson,
  MeasurePublishJson,
  MeasureVersionDetailJson,
  MeasureVersionJson,
} from '@cds/contracts';
import { json, ndjsonStream, renderApp } from '../../test/helpers';
import { adminApiMock } from '../test/adminHelpers';
import { design, ID } from '../test/measureDesign';

const DESIGN = `GET /api/measures/designs/${ID}`;
const admin = { user_id: 'u1', email: 'quality.lead@example.org', at: '2026-11-27T09:00:00.000Z' };
const draftOf = (value: number, revision = 1): MeasureVersionDetailJson => ({
  measure_id: ID,
  version: 2,
  label: '2 (local)',
  status: 'draft',
  source: 'local',
  revision,
  note: null,
  created: admin,
  updated: admin,
  published: null,
  rules: design.populations.flatMap((p) =>
    p.rules.map((r) => ({
      id: r.id,
      name: r.name,
      population: p.code,
      conditions: r.conditions.map((c) => ({
        parameter: c.parameter_id,
        operator: c.operator,
        value: r.id === 'cms122-num-elevated' ? value : c.value,
      })),
    })),
  ),
});
const impact: MeasureImpactJson = {
  measure_id: ID,
  period: { start: '2026-01-01', end: '2026-12-31' },
  versions: { current: design.version.hash, draft: 'CMS122-bbbbbbbbbbbbbbbbbbbbbbbb' },
  analysis: { summary: { error: 0, warning: 0, info: 0 }, findings: [] },
  patients: 3,
  current_from: { stored: 2, evaluated: 1 },
  changed: 1,
  counts: [{ population: 'numerator', label: 'Numerator', before: 1, after: 2 }],
  changed_patients: [
    { patient_id: 'p1', name: 'Rosa Eklund', before: { numerator: false }, after: { numerator: true }, changes: ['Numerator: No → Yes'] },
  ],
};
const cutPoint = () =>
  screen.getByRole('spinbutton', { name: 'Most recent HbA1c or GMI > 9 %: Most recent HbA1c or GMI (lowest that day) >' });

// The first render loads the admin console and the page lazily: slow on a loaded machine.
describe("A measure's draft: save, discard, publish, versions (admin console)", { timeout: 60_000 }, () => {
  it("saves CMS122's cut-point at 8 % as a draft, then publishes it with a change note after the impact counts", async () => {
    let current: MeasureDesignJson = design;
    let saved: MeasureDraftSaveJson | undefined;
    let published: MeasurePublishJson | undefined;
    adminApiMock({
      [DESIGN]: () => json(200, current),
      [`PUT /api/measures/designs/${ID}/draft`]: (req) => {
        saved = req.body as MeasureDraftSaveJson;
        current = { ...design, draft: draftOf(8) };
        return json(200, current.draft);
      },
      [`POST /api/measures/designs/${ID}/impact`]: json(200, impact),
      [`POST /api/measures/designs/${ID}/draft/publish`]: (req) => {
        published = req.body as MeasurePublishJson;
        return json(200, { ...draftOf(8), status: 'published', note: published.note, published: admin });
      },
    });
    renderApp(`/admin/measures/${ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }, { timeout: 40_000 }));
    // Nothing changed yet: the buttons that cannot act say why.
    expect(screen.getByRole('button', { name: 'Save draft' })).toBeDisabled();
    expect(screen.getByText('Change a cut-point or leave a rule out to start a draft.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Publish...' })).toBeDisabled();
    expect(screen.getByText('Save the draft before publishing it.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Discard draft' })).toBeDisabled();
    await userEvent.clear(cutPoint());
    await userEvent.type(cutPoint(), '8');
    expect(screen.getByRole('button', { name: 'Save draft' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(/Draft version 2 \(local\) of CMS122 is saved/)).toBeInTheDocument();
    expect(saved?.draft_revision).toBeNull();
    // The rule's name states its cut-point, and moves with it: the Panel's evidence and the gap card show it.
    expect(saved?.rules.find((r) => r.id === 'cms122-num-elevated')).toMatchObject({
      name: 'Most recent HbA1c or GMI > 8 %',
      conditions: [expect.objectContaining({ value: 8 })],
    });
    // The page now reads the saved draft.
    expect(await screen.findByRole('tab', { name: 'Draft (version 2 (local))' })).toBeInTheDocument();
    const publish = await screen.findByRole('button', { name: 'Publish...' });
    await screen.findByText('Nothing to save: the draft is as saved.');
    expect(publish).toBeEnabled();
    await userEvent.click(publish);
    const dialog = await screen.findByRole('dialog', { name: 'Publish version 2 (local) of CMS122' });
    expect(await within(dialog).findByText(/1 of 3 stored patients change population/)).toBeInTheDocument();
    expect(within(dialog).getByRole('table', { name: 'Patients per population, now and with the draft' })).toHaveTextContent('Numerator12');
    expect(dialog).toHaveTextContent('Now: 2 patients from stored results (the last measure run or Panel load), 1 evaluated now.');
    const confirm = within(dialog).getByRole('button', { name: 'Publish' });
    expect(confirm).toBeDisabled(); // a change note is required
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Change note/ }), 'Clinic goal: above 8 % is poor control');
    await userEvent.click(confirm);
    expect(await screen.findByText(/Version 2 \(local\) of CMS122 is now used by the Panel/)).toBeInTheDocument();
    expect(published).toEqual({ note: 'Clinic goal: above 8 % is poor control', draft_revision: 1 });
  });

  // A preview over a large panel takes minutes: the dialog shows the server's own count of patients compared, never a timer.
  it('while the server compares 100,000 patients under the 8 % draft, the publish dialog follows its count', async () => {
    const { response, send, close } = ndjsonStream();
    const calls = adminApiMock({
      [DESIGN]: json(200, { ...design, draft: draftOf(8) }),
      [`POST /api/measures/designs/${ID}/impact`]: response,
    });
    renderApp(`/admin/measures/${ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit draft' }, { timeout: 40_000 }));
    await userEvent.click(await screen.findByRole('button', { name: 'Publish...' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish version 2 (local) of CMS122' });
    const bar = await within(dialog).findByRole('progressbar', { name: 'Patients compared' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    expect(within(dialog).getByRole('status')).toHaveTextContent('Reading the measure and its stored results...');
    expect(calls.callsTo(`POST /api/measures/designs/${ID}/impact`)[0].headers.get('Accept')).toContain('application/x-ndjson');

    send({ progress: { done: 0, total: 100_000 } });
    expect(await within(dialog).findByText('0 of 100,000 patients compared')).toBeInTheDocument();
    send({ progress: { done: 25_000, total: 100_000 } });
    expect(await within(dialog).findByText('25,000 of 100,000 patients compared')).toBeInTheDocument();
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(within(dialog).getByRole('button', { name: 'Publish' })).toBeDisabled();
    send({ progress: { done: 100_000, total: 100_000 } });
    expect(await within(dialog).findByText('100,000 of 100,000 patients compared; naming the patients who change...')).toBeInTheDocument();

    send({ preview: { ...impact, patients: 100_000, current_from: { stored: 99_990, evaluated: 10 } } });
    close();
    expect(await within(dialog).findByText(/1 of 100000 stored patients change population/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('progressbar', { name: 'Patients compared' })).toBeNull();
    expect(dialog).toHaveTextContent('Now: 99,990 patients from stored results (the last measure run or Panel load), 10 evaluated now.');
  });

  it("a preview that fails once it began streaming shows the server's reason, and publishing stays closed", async () => {
    const lines = [
      { progress: { done: 0, total: 3 } },
      {
        error: {
          statusCode: 409,
          code: 'conflict',
          message: "The measure's value sets are not loaded: urn:oid:2.16.840.1.113883.3.464.1003.198.12.1013",
        },
      },
    ];
    adminApiMock({
      [DESIGN]: json(200, { ...design, draft: draftOf(8) }),
      [`POST /api/measures/designs/${ID}/impact`]: () =>
        new Response(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', {
          status: 200,
          headers: { 'Content-Type': 'application/x-ndjson' },
        }),
    });
    renderApp(`/admin/measures/${ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit draft' }, { timeout: 40_000 }));
    await userEvent.click(await screen.findByRole('button', { name: 'Publish...' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish version 2 (local) of CMS122' });
    expect(await within(dialog).findByText(/value sets are not loaded/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('progressbar', { name: 'Patients compared' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Publish' })).toBeDisabled();
  });

  it('a draft someone saved since: the save is refused and the message says to reload', async () => {
    const stale =
      'The draft of CMS122 was saved by someone else since you opened it (it is now at revision 3): reload it before you change it';
    adminApiMock({
      [DESIGN]: json(200, { ...design, draft: draftOf(8.5, 2) }),
      [`PUT /api/measures/designs/${ID}/draft`]: json(409, { statusCode: 409, code: 'conflict', message: stale }),
    });
    renderApp(`/admin/measures/${ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit draft' }, { timeout: 40_000 }));
    expect(cutPoint()).toHaveValue(8.5);
    await userEvent.clear(cutPoint());
    await userEvent.type(cutPoint(), '8');
    expect(screen.getByText('Save your changes first: the saved draft is what is published.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(stale)).toBeInTheDocument();
  });

  it('discarding asks first, names the version kept, and discards the draft at its revision', async () => {
    let revision: string | null = null;
    adminApiMock({
      [DESIGN]: json(200, { ...design, draft: draftOf(8, 4) }),
      [`DELETE /api/measures/designs/${ID}/draft`]: (req) => {
        revision = req.query.get('revision');
        return new Response(null, { status: 204 });
      },
    });
    renderApp(`/admin/measures/${ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit draft' }, { timeout: 40_000 }));
    await userEvent.click(screen.getByRole('button', { name: 'Discard draft' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard the draft?' });
    expect(dialog).toHaveTextContent('The measure stays as published (version 1 (CMS as shipped)).');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('CMS122 stays as published.')).toBeInTheDocument();
    expect(revision).toBe('4');
  });

  it('lists the versions newest first with status, who, when and the change note', async () => {
    const versions: MeasureVersionJson[] = [
      { ...draftOf(8), status: 'published', note: 'Clinic goal: above 8 % is poor control', published: admin },
      { ...design.published, status: 'retired' },
    ];
    adminApiMock({ [DESIGN]: json(200, design), [`GET /api/measures/designs/${ID}/versions`]: json(200, versions) });
    renderApp(`/admin/measures/${ID}`);
    await userEvent.click(await screen.findByRole('tab', { name: 'History' }, { timeout: 40_000 }));
    const table = await screen.findByRole('table', { name: 'Versions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('2 (local)Published');
    expect(rows[0]).toHaveTextContent('Published by quality.lead@example.org');
    expect(rows[0]).toHaveTextContent('Clinic goal: above 8 % is poor control');
    expect(rows[1]).toHaveTextContent('1 (CMS as shipped)RetiredShipped with the product (CMS)');
    expect(rows[1]).toHaveTextContent('The measure as CMS specifies it');
  });
});
