import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { parameter } from '../test/fixtures';
import type { ConditionDraft } from './conditionRules';
import { ConditionsEditor } from './ConditionsEditor';

const hba1c = parameter({ id: 'p-1', name: 'hba1c', display_name: 'HbA1c', data_type: 'lab_range', units: '%' });
const ab = parameter({ id: 'p-2', name: 'Antibodies', display_name: 'Antibodies', data_type: 'boolean', units: null });
const notes = parameter({ id: 'p-3', name: 'notes', display_name: 'Notes', data_type: 'text', units: null });
const seen = parameter({ id: 'p-4', name: 'last_visit', display_name: 'Last visit', data_type: 'date', units: null });

function Harness({ initial }: { initial: ConditionDraft[] }) {
  const [conditions, setConditions] = useState(initial);
  return (
    <>
      <ConditionsEditor conditions={conditions} parameters={[hba1c, ab, notes, seen]} onChange={setConditions} />
      <output data-testid="state">{JSON.stringify(conditions)}</output>
    </>
  );
}

const state = () => JSON.parse(screen.getByTestId('state').textContent!) as ConditionDraft[];
const rows = () => screen.getAllByTestId('condition-row');
async function pick(row: HTMLElement, label: RegExp | string, option: string) {
  await userEvent.click(within(row).getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}
async function options(row: HTMLElement, label: RegExp | string) {
  await userEvent.click(within(row).getByRole('combobox', { name: label }));
  const names = (await screen.findAllByRole('option')).map((o) => o.textContent);
  await userEvent.keyboard('{Escape}');
  return names;
}

describe('ConditionsEditor', () => {
  it('offers the operators of the parameter type and resets the operator when the parameter changes', async () => {
    render(<Harness initial={[{ key: 'a', parameter: 'p-1', operator: 'greater_than', value: '7', logic: 'AND' }]} />);
    expect(await options(rows()[0], 'Operator')).toEqual([
      'Equals',
      'Not Equals',
      'Greater Than',
      'Less Than',
      'Greater or Equal',
      'Less or Equal',
    ]);
    await pick(rows()[0], 'Parameter', 'Antibodies (Antibodies)');
    expect(state()[0]).toMatchObject({ parameter: 'p-2', operator: 'equals', value: '' });
    expect(await options(rows()[0], 'Operator')).toEqual(['Is', 'Is Not']);
    await pick(rows()[0], 'Parameter', 'Notes (notes)');
    expect(state()[0].operator).toBe('equals');
    expect(await options(rows()[0], 'Operator')).toEqual(['Equals', 'Not Equals', 'Contains', 'Starts With', 'Ends With']);
    await pick(rows()[0], 'Parameter', 'Last visit (last_visit)');
    expect(await options(rows()[0], 'Operator')).toEqual(['Equals', 'Not Equals', 'Before', 'After', 'Within Days']);
  });

  it('the value input follows the type, with the units under it', async () => {
    render(
      <Harness
        initial={[
          { key: 'a', parameter: 'p-1', operator: 'greater_than', value: '', logic: 'AND' },
          { key: 'b', parameter: 'p-2', operator: 'equals', value: '', logic: 'AND' },
          { key: 'c', parameter: 'p-3', operator: 'contains', value: '', logic: 'AND' },
        ]}
      />,
    );
    const [num, bool, text] = rows();
    const numberInput = within(num).getByLabelText('Value');
    expect(numberInput).toHaveAttribute('type', 'number');
    expect(within(num).getByText('Units: %')).toBeInTheDocument();
    expect(await options(bool, 'Value')).toEqual(['True', 'False']);
    expect(within(text).getByLabelText('Value')).toHaveAttribute('type', 'text');
    await pick(text, 'Parameter', 'Last visit (last_visit)');
    await pick(rows()[2], 'Operator', 'Within Days');
    expect(within(rows()[2]).getByText('Units: days')).toBeInTheDocument();
  });

  it('shows a UCUM unit as people write it: mmHg, not mm[Hg]', () => {
    const sbp = parameter({ id: 'p-5', name: 'sbp', display_name: 'Systolic BP', data_type: 'number', units: 'mm[Hg]' });
    render(
      <ConditionsEditor
        conditions={[{ key: 'a', parameter: 'p-5', operator: 'greater_equal', value: '180', logic: 'AND' }]}
        parameters={[sbp]}
        onChange={() => undefined}
      />,
    );
    expect(within(rows()[0]).getByText('Units: mmHg')).toBeInTheDocument();
    expect(screen.queryByText(/mm\[Hg\]/)).not.toBeInTheDocument();
  });

  it('shows the logic operator on every condition but the last', async () => {
    render(
      <Harness
        initial={[
          { key: 'a', parameter: 'p-1', operator: 'greater_than', value: '7', logic: 'AND' },
          { key: 'b', parameter: 'p-1', operator: 'less_than', value: '9', logic: 'AND' },
        ]}
      />,
    );
    expect(within(rows()[0]).getByRole('combobox', { name: 'Logic between condition 1 and 2' })).toBeInTheDocument();
    expect(within(rows()[1]).queryByRole('combobox', { name: /Logic/ })).not.toBeInTheDocument();
    await pick(rows()[0], 'Logic between condition 1 and 2', 'OR');
    expect(state()[0].logic).toBe('OR');
    await userEvent.click(screen.getByRole('button', { name: 'Add Condition' }));
    expect(rows()).toHaveLength(3);
    expect(within(rows()[1]).getByRole('combobox', { name: 'Logic between condition 2 and 3' })).toBeInTheDocument();
    expect(within(rows()[2]).queryByRole('combobox', { name: /Logic/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove condition 3' }));
    expect(within(rows()[1]).queryByRole('combobox', { name: /Logic/ })).not.toBeInTheDocument();
  });
});
