import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ThemeProvider } from '@mui/material/styles';
import type { MeasureDesignJson } from '@cds/contracts';
import { theme } from '../../theme';
import { cms122, cms165, cms951 } from '../test/measureFlowDesigns';
import { MeasureFlow } from './MeasureFlow';
import { useMeasureDraft } from './measureDraft';

function Harness({ d }: { d: MeasureDesignJson }) {
  const draft = useMeasureDraft(d);
  return (
    <ThemeProvider theme={theme}>
      <MeasureFlow d={d} draft={draft} onOpenDraft={() => {}} />
    </ThemeProvider>
  );
}

const node = (name: string) => screen.findByRole('region', { name });
const headings = () => screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);

const cms122At8: MeasureDesignJson = {
  ...cms122,
  draft: {
    ...cms122.published,
    version: 2,
    label: '2 (local)',
    status: 'draft',
    source: 'local',
    rules: cms122.populations.flatMap((p) =>
      p.rules.map((r) => ({
        id: r.id,
        name: r.id === 'cms122-num-elevated' ? 'Most recent HbA1c or GMI > 8 %' : r.name,
        population: p.code,
        conditions: r.conditions.map((c) => ({
          parameter: c.parameter_id,
          operator: c.operator,
          value: r.id === 'cms122-num-elevated' ? 8 : c.value,
        })),
      })),
    ),
  },
};

describe('A measure as a flow in the designer', () => {
  it('CMS122: the measurement period, then initial population, denominator, exclusions and the numerator as the gap, in words', async () => {
    render(<Harness d={cms122} />);
    const ip = await node('Initial population');
    expect(screen.getByRole('figure', { name: 'Measure flow' }).querySelector('.react-flow')).not.toBeNull();
    expect(screen.getByText('Measurement period 2026-01-01 to 2026-12-31')).toBeInTheDocument();
    expect(headings()).toEqual(['Initial population', 'Denominator', 'Denominator exclusions', 'Numerator: the gap']);
    expect(ip).toHaveTextContent('Age at the end of the measurement period ≥ 18 years');
    expect(ip).toHaveTextContent('Age at the end of the measurement period ≤ 75 years');
    expect(ip).toHaveTextContent('Reads from the record: Age at the end of the measurement period (years); Qualifying outpatient');
    expect(ip).toHaveTextContent(/Value sets: Office Visit, Annual Wellness Visit, .*Diabetes/);
    expect(await node('Denominator')).toHaveTextContent('The initial population: this measure adds no rule of its own here.');
    const excluded = await node('Denominator exclusions');
    expect(excluded).toHaveTextContent('Any of these rules');
    expect(excluded).toHaveTextContent('Hospice services in the measurement period = Yes');
    const gap = await node('Numerator: the gap');
    expect(gap).toHaveTextContent('Most recent HbA1c or GMI (lowest that day) > 9 %');
    expect(gap).toHaveTextContent('Value sets: HbA1c Laboratory Test');
    expect(gap).toHaveTextContent(
      'Inverse measure: a patient counted here is not at goal (Most recent HbA1c or GMI in the period at or below 9 %)',
    );
    expect(screen.queryByText('Draft differs')).toBeNull();
    expect(screen.getByText(/The flow shows version 1 \(CMS as shipped\), as published/)).toBeInTheDocument();
  });

  it('CMS951: the numerator is met with both kidney tests, read from their value sets; only the ages are cut-points', async () => {
    render(<Harness d={cms951} />);
    const num = await node('Numerator');
    expect(num).toHaveTextContent('eGFR with a result in the measurement period = Yes');
    expect(num).toHaveTextContent('Urine albumin-creatinine ratio with a result in the measurement period = Yes');
    expect(num).toHaveTextContent('Value sets: Estimated Glomerular Filtration Rate, Urine Albumin Creatinine Ratio');
    expect(num).toHaveTextContent(
      'A patient counted here meets the goal (Both an eGFR and a urine albumin-creatinine ratio in the period)',
    );
    expect(within(num).queryByRole('button', { hidden: true })).toBeNull();
    expect(await node('Initial population')).toHaveTextContent('Age at the start of the measurement period ≥ 18 years');
    expect(within(await node('Initial population')).getByRole('button', { name: 'Edit cut-points: Initial population' })).toBeEnabled();
  });

  it('CMS165: blood pressure cut-points in mmHg in the numerator, six exclusions as alternatives, on a phone as a list', () => {
    // A phone: every media query of the page's breakpoints holds.
    vi.stubGlobal('matchMedia', (media: string) => ({ matches: true, media, addEventListener() {}, removeEventListener() {} }));
    render(<Harness d={cms165} />);
    const list = screen.getByRole('list', { name: 'Measure flow' });
    expect(list.querySelector('.react-flow')).toBeNull();
    const num = within(list).getByRole('region', { name: 'Numerator' });
    expect(num).toHaveTextContent('Most recent systolic BP (lowest that day) < 140 mmHg');
    expect(num).toHaveTextContent('Most recent diastolic BP (lowest that day) < 90 mmHg');
    expect(num).toHaveTextContent('Reads from the record: Systolic blood pressure recorded in the measurement period; ');
    expect(within(list).getByRole('region', { name: 'Denominator exclusions' }).querySelectorAll(':scope > ul > li')).toHaveLength(6);
    expect(list).toHaveTextContent('Essential hypertension in the first six months of the measurement period = Yes');
    expect(list.textContent).toMatch(/Denominator exclusions.*↓ of those leftNumerator/s);
  });

  it("marks a draft's changed cut-point: CMS122's numerator at 9 % → 8 %, the rest as published", async () => {
    render(<Harness d={cms122At8} />);
    const gap = await node('Numerator: the gap');
    expect(within(gap).getByLabelText('cut-point changed from 9 % to 8 %')).toHaveTextContent('9 % → 8 %');
    expect(gap).toHaveTextContent('Most recent HbA1c or GMI > 8 %Changed in the draft');
    expect(within(gap).getByText('Draft differs')).toBeInTheDocument();
    // The goal stated beside the draft's 8 % is the published one, and says so.
    expect(gap).toHaveTextContent("not at goal (the published version's goal: Most recent HbA1c or GMI in the period at or below 9 %)");
    expect(screen.getAllByText('Draft differs')).toHaveLength(1);
    expect(screen.getByText(/The flow shows the draft \(version 2 \(local\)\): what differs from version 1/)).toBeInTheDocument();
  });

  it("edits a cut-point in the numerator's panel, and the flow marks it at once", async () => {
    render(<Harness d={cms122} />);
    await userEvent.click(within(await node('Numerator: the gap')).getByRole('button', { name: 'Edit cut-points: Numerator: the gap' }));
    const panel = screen.getByRole('region', { name: 'Cut-points: Numerator: the gap' });
    const cut = within(panel).getByRole('spinbutton', { name: /^Most recent HbA1c or GMI > 9 %:/ });
    expect(cut).toHaveFocus();
    await userEvent.clear(cut);
    await userEvent.type(cut, '8');
    expect(within(await node('Numerator: the gap')).getByLabelText('cut-point changed from 9 % to 8 %')).toBeInTheDocument();
    expect(screen.getByText(/The flow shows the unsaved draft/)).toBeInTheDocument();
  });
});
