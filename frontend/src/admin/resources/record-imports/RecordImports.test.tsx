import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MeasureRunJson, RecordImportJson } from '@cds/contracts';
import { apiError, renderApp } from '../../../test/helpers';
import { adminApiMock, listOf } from '../../test/adminHelpers';

const job = (o: Partial<RecordImportJson> = {}): RecordImportJson => ({
  id: 'j-1',
  kind: 'fhir-import',
  status: 'completed',
  progress: { done: 1200, total: 1200 },
  stored: 1180,
  invalid: 2,
  errors: [{ line: 17, diagnostics: 'the line is not JSON' }],
  failure: null,
  inputs: null,
  requested_by: 'u-1',
  created_at: '2026-11-20T10:00:00.000Z',
  started_at: '2026-11-20T10:00:01.000Z',
  finished_at: '2026-11-20T10:00:09.000Z',
  ...o,
});

describe('Record imports (admin console)', () => {
  it('lists each import with its status, a progress bar and what was stored or skipped', async () => {
    adminApiMock({
      'GET /api/jobs': listOf('jobs', [
        job({ id: 'j-3', status: 'running', progress: { done: 400, total: 1600 }, stored: 0, invalid: 0, errors: [] }),
        job({
          id: 'j-2',
          status: 'failed',
          inputs: [{ type: 'Patient', url: 'https://fhir.example.org/r4/Patient.ndjson' }],
          failure: 'https://fhir.example.org/r4/Patient.ndjson answered 500',
          progress: { done: 0, total: null },
          stored: 0,
          invalid: 0,
          errors: [],
        }),
        job(),
      ]),
      'GET /api/measure-runs': listOf('measure-runs', []),
    });
    renderApp('/admin/jobs');
    expect(await screen.findByRole('heading', { name: 'Record imports' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Running')).toBeInTheDocument();
    expect(within(table).getByRole('progressbar', { name: '400 of 1600 lines read' })).toHaveAttribute('aria-valuenow', '25');
    expect(within(table).getByText('1 URL')).toBeInTheDocument();
    expect(within(table).getByText(/answered 500: nothing was stored/)).toBeInTheDocument();
    expect(within(table).getByText(/1,180 resources stored; 2 lines skipped \(line 17: the line is not JSON\)/)).toBeInTheDocument();
  });

  it('says in words that nothing was imported yet', async () => {
    adminApiMock({ 'GET /api/jobs': listOf('jobs', []), 'GET /api/measure-runs': listOf('measure-runs', []) });
    renderApp('/admin/jobs');
    expect(await screen.findByText(/No import yet/)).toBeInTheDocument();
    expect(await screen.findByText('No measure run yet.')).toBeInTheDocument();
  });

  it('shows the measure runs beside the imports: progress in patients, and how many were evaluated or unchanged', async () => {
    const run = (o: Partial<MeasureRunJson>): MeasureRunJson => ({
      id: 'r-1',
      kind: 'measure-run',
      status: 'completed',
      measure_ids: ['A', 'B', 'C'],
      period: { start: '2026-01-01', end: '2026-12-31' },
      trend: true,
      progress: { done: 2000, total: 2000 },
      evaluated: 12,
      failure: null,
      requested_by: 'u-1',
      created_at: '2026-11-20T10:00:00.000Z',
      started_at: '2026-11-20T10:00:01.000Z',
      finished_at: '2026-11-20T10:00:09.000Z',
      ...o,
    });
    const api = adminApiMock({
      'GET /api/jobs': listOf('jobs', []),
      'GET /api/measure-runs': listOf('measure-runs', [
        run({ id: 'r-2', status: 'running', progress: { done: 500, total: 2000 }, evaluated: 40 }),
        run({}),
      ]),
      'POST /api/measure-runs': {
        status: 202,
        body: run({ id: 'r-3', status: 'queued', progress: { done: 0, total: null }, evaluated: 0 }),
      },
    });
    renderApp('/admin/jobs');
    const runs = await screen.findByRole('region', { name: 'Measure runs' });
    expect(await within(runs).findByRole('progressbar', { name: '500 of 2000 patients' })).toHaveAttribute('aria-valuenow', '25');
    expect(within(runs).getByText('40 patients evaluated so far')).toBeInTheDocument();
    expect(within(runs).getByText('12 patients evaluated; 1,988 unchanged since their stored result')).toBeInTheDocument();
    within(runs)
      .getByRole('button', { name: /Run the measures/ })
      .click();
    await waitFor(() => expect(api.callsTo('POST /api/measure-runs')).toHaveLength(1));
    expect(api.callsTo('POST /api/measure-runs')[0].body).toEqual({ trend: true });
  });

  it('a list that could not load says why and loads again on Retry', async () => {
    let calls = 0;
    adminApiMock({
      'GET /api/jobs': () => (calls++ === 0 ? apiError(500, 'internal', 'Database unavailable') : listOf('jobs', [job()])),
      'GET /api/measure-runs': listOf('measure-runs', []),
    });
    renderApp('/admin/jobs');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The imports could not be loaded.');
    expect(alert).toHaveTextContent('Database unavailable');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(await screen.findByRole('table')).findByText('Completed')).toBeInTheDocument();
    expect(screen.queryByText('The imports could not be loaded.')).not.toBeInTheDocument();
  });
});
