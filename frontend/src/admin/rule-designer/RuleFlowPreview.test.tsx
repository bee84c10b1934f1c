import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { parameter } from '../test/fixtures';
import RuleFlowPreview from './RuleFlowPreview';

const hba1c = parameter({ id: 'p-1', display_name: 'HbA1c', units: '%' });

describe('RuleFlowPreview', () => {
  it('draws the start, condition, decision and action nodes with their labels, in a 24 rem panel', async () => {
    render(
      <RuleFlowPreview
        parameters={[hba1c]}
        draft={{
          name: 'Poor control',
          conditions: [
            { key: 'a', parameter: 'p-1', operator: 'greater_equal', value: '9', logic: 'AND' },
            { key: 'b', parameter: 'p-1', operator: 'less_than', value: '15', logic: 'AND' },
          ],
          actions: [{ key: 'x', type: 'alert', severity: 'high', message: 'Urgent review' }],
        }}
      />,
    );
    const figure = screen.getByRole('figure', { name: 'Rule preview' });
    expect(figure).toHaveStyle({ height: '24rem' });
    const flow = within(figure).getByRole('list', { name: 'Rule flow' });
    expect(
      within(flow)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Poor control', 'HbA1c ≥ 9 %', 'AND: HbA1c < 15 %', 'Conditions Met?', 'Yes: alert: Urgent review']);
    // React Flow renders the custom nodes themselves.
    expect(await within(figure).findByLabelText('alert')).toBeInTheDocument();
    expect(figure.querySelector('.react-flow')).not.toBeNull();
  });

  it('shows the empty texts', () => {
    const { rerender } = render(<RuleFlowPreview parameters={[]} draft={{ name: '', conditions: [], actions: [] }} />);
    expect(screen.getByText('No rule data to preview')).toBeInTheDocument();
    rerender(
      <RuleFlowPreview
        parameters={[hba1c]}
        draft={{ name: 'R', conditions: [{ key: 'a', parameter: 'p-1', operator: 'equals', value: '5', logic: 'AND' }], actions: [] }}
      />,
    );
    expect(screen.getAllByText('No actions defined').length).toBeGreaterThan(0);
  });
});
