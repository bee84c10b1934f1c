import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, renderApp } from '../../../test/helpers';
import { adminApiMock, listOf } from '../../test/adminHelpers';
import type { ApprovalJson } from '@cds/contracts';

const request = (o: Partial<ApprovalJson> = {}): ApprovalJson => ({
  id: 'ap-1',
  user_id: 'u-1',
  email: 'new.doc@clinic.test',
  first_name: 'Nia',
  last_name: 'Doe',
  current_role: null,
  requested_role: 'pcp',
  status: 'pending',
  decided_by: null,
  decided_by_email: null,
  decided_at: null,
  reason: null,
  created_at: '2025-02-01T10:00:00.000Z',
  ...o,
});

describe('Pending Approvals', () => {
  it('shows both panels with the spec empty texts', async () => {
    adminApiMock({ 'GET /api/approvals': listOf('approvals', []) });
    renderApp('/admin/approvals');
    expect(await screen.findByRole('heading', { name: 'PCP Access Requests' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Admin Access Requests' })).toBeInTheDocument();
    expect(await screen.findByText('No pending PCP access requests at this time.')).toBeInTheDocument();
    expect(screen.getByText('No pending admin access requests at this time.')).toBeInTheDocument();
  });

  it('approves a request after a confirmation, which leaves the panel; Cancel grants nothing', async () => {
    let pending = [request()];
    const api = adminApiMock({
      'GET /api/approvals': (req) =>
        JSON.parse(req.query.get('filter')!).requested_role === 'pcp' ? listOf('approvals', pending) : listOf('approvals', []),
      'POST /api/approvals/ap-1/approve': () => {
        pending = [];
        return json(200, request({ status: 'approved' }));
      },
    });
    renderApp('/admin/approvals');
    await userEvent.click(await screen.findByRole('button', { name: 'Approve new.doc@clinic.test' }));
    let dialog = await screen.findByRole('dialog', { name: 'Approve access request' });
    expect(dialog).toHaveTextContent('Give new.doc@clinic.test Primary Care Provider access?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST /api/approvals/ap-1/approve')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Approve new.doc@clinic.test' }));
    dialog = await screen.findByRole('dialog', { name: 'Approve access request' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('new.doc@clinic.test now has Primary Care Provider access.')).toBeInTheDocument();
    expect(await screen.findByText('No pending PCP access requests at this time.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/approvals/ap-1/approve')).toHaveLength(1);
  });

  it('rejects with a reason; a failure keeps the reason typed', async () => {
    let fail = true;
    const api = adminApiMock({
      'GET /api/approvals': (req) =>
        JSON.parse(req.query.get('filter')!).requested_role === 'pcp' ? listOf('approvals', [request()]) : listOf('approvals', []),
      'POST /api/approvals/ap-1/reject': () => (fail ? apiError(500, 'internal_error', '') : json(200, request({ status: 'rejected' }))),
    });
    renderApp('/admin/approvals');
    await userEvent.click(await screen.findByRole('button', { name: 'Reject new.doc@clinic.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject access request' });
    await userEvent.type(within(dialog).getByLabelText('Reason (optional)'), 'Not a clinician');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Failed to record the decision. Please try again.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Reason (optional)')).toHaveValue('Not a clinician');
    fail = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.callsTo('POST /api/approvals/ap-1/reject')).toHaveLength(2));
    expect(api.callsTo('POST /api/approvals/ap-1/reject')[1].body).toEqual({ reason: 'Not a clinician' });
    expect(await screen.findByText('The request of new.doc@clinic.test was rejected.')).toBeInTheDocument();
  });
});
