import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HistoryChart } from './HistoryChart';

describe('a lab history plotted for the physician', () => {
  it('A1C 6.7 % then 7.2 %: a dot per result, the cut-point dashed, and every value listed newest first with its unit', () => {
    render(
      <HistoryChart
        title="HbA1c"
        unit="%"
        points={[
          { at: '2026-11-20T09:00:00Z', value: 7.2 },
          { at: '2026-08-01', value: 6.7 },
        ]}
        thresholds={[{ value: 6.5, label: 'Diabetes ≥ 6.5 %' }]}
      />,
    );
    const chart = screen.getByTestId('history-chart');
    expect(within(chart).getByRole('img').getAttribute('aria-label')).toBe(
      'HbA1c: 2 results from Aug 1, 2026 (6.7 %) to Nov 20, 2026 (7.2 %)',
    );
    expect(chart.querySelectorAll('circle')).toHaveLength(2);
    expect(within(chart).getByText('Diabetes ≥ 6.5 %')).toBeInTheDocument();
    const rows = within(chart)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows).toEqual(['Nov 20, 2026' + '7.2 %', 'Aug 1, 2026' + '6.7 %']);
  });

  it('an IFCC result is listed as entered, in mmol/mol, with the plotted % marked ≈', () => {
    render(
      <HistoryChart
        title="HbA1c"
        unit="%"
        points={[
          { at: '2026-01-15', value: 9, entered: '75 mmol/mol' },
          { at: '2025-10-01', value: 8.1 },
        ]}
      />,
    );
    const rows = within(screen.getByTestId('history-chart'))
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows).toEqual(['Jan 15, 2026' + '75 mmol/mol (≈ 9 %)', 'Oct 1, 2025' + '8.1 %']);
  });

  it('one result is not a history: nothing is plotted', () => {
    const { container } = render(<HistoryChart title="eGFR" unit="mL/min/1.73 m²" points={[{ at: '2026-11-20', value: 52 }]} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('a result without a readable date or number is left out, not plotted at zero', () => {
    render(
      <HistoryChart
        title="eGFR"
        unit="mL/min/1.73 m²"
        points={[
          { at: '2026-11-20', value: 48 },
          { at: 'not a date', value: 50 },
          { at: '2026-07-21', value: Number.NaN },
          { at: '2026-07-20', value: 52 },
        ]}
      />,
    );
    expect(screen.getByTestId('history-chart').querySelectorAll('circle')).toHaveLength(2);
  });
});
