import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ConformanceCaseJson, ConformanceJson } from '@cds/contracts';
import { json, renderApp } from '../../test/helpers';
import { adminApiMock } from '../test/adminHelpers';

const populations = (ip: number, den: number, excl: number, num: number) => ({
  'initial-population': ip,
  denominator: den,
  'denominator-exclusion': excl,
  numerator: num,
});
const aCase = (o: Partial<ConformanceCaseJson>): ConformanceCaseJson => ({
  file: 'a.json',
  description: 'HbA1c 9.5 % in the period',
  period: { start: '2025-01-01', end: '2025-12-31' },
  expected: populations(1, 1, 0, 1),
  actual: populations(1, 1, 0, 1),
  agrees: true,
  ...o,
});
const report: ConformanceJson = {
  available: true,
  directory: '/decks',
  agreed: 2,
  total: 3,
  measures: [
    {
      id: 'M122',
      identifier: 'CMS122',
      title: 'Glycemic Status > 9 %',
      deck: 'CMS122-glycemic-status-gt-9',
      published_version: null,
      agreed: 1,
      cases: [aCase({}), aCase({ file: 'b.json', description: 'GMI 9.2 %', actual: populations(1, 1, 0, 0), agrees: false })],
    },
    {
      id: 'M951',
      identifier: 'CMS951',
      title: 'Kidney Health Evaluation',
      deck: 'CMS951-kidney',
      published_version: null,
      agreed: 1,
      cases: [aCase({ file: 'c.json' })],
    },
  ],
};

// The first render loads the admin console and the page lazily: slow on a loaded machine.
describe('Measure conformance (admin console)', { timeout: 60_000 }, () => {
  it("shows each official case's expected and computed populations, a disagreement marked in words", async () => {
    adminApiMock({ 'GET /api/measures/conformance': json(200, report) });
    renderApp('/admin/conformance');
    expect(await screen.findByRole('heading', { name: 'Measure conformance' }, { timeout: 40_000 })).toBeInTheDocument();
    expect(await screen.findByText('2 of 3 official cases agree with the expected populations.')).toBeInTheDocument();
    expect(screen.getByText('1 of 2 agree')).toBeInTheDocument();
    // The deck with a disagreement is open: the case reads expected / computed per population.
    const table = screen.getByRole('table', { name: 'CMS122 cases' });
    const row = within(table).getByText('GMI 9.2 %').closest('tr')!;
    expect(within(row).getByText('Disagrees')).toBeInTheDocument();
    expect(within(row).getByText('Yes / No ≠')).toBeInTheDocument();
  });

  it('says plainly when the decks are not installed', async () => {
    adminApiMock({
      'GET /api/measures/conformance': json(200, { available: false, directory: '/srv/ecqm-2024', agreed: 0, total: 0, measures: [] }),
    });
    renderApp('/admin/conformance');
    expect(
      await screen.findByText(/The conformance decks are not installed on this server, so no case was run/, {}, { timeout: 40_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText(/looked in \/srv\/ecqm-2024/)).toBeInTheDocument();
  });
});
