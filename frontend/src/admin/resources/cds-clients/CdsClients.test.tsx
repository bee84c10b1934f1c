import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CdsClientJson } from '@cds/contracts';
import { apiError, json, renderApp } from '../../../test/helpers';
import { adminApiMock, listOf } from '../../test/adminHelpers';

const client = (o: Partial<CdsClientJson> = {}): CdsClientJson => ({
  id: 'c-1',
  issuer: 'https://ehr.example.org',
  name: 'Example EHR',
  jwks_url: 'https://ehr.example.org/.well-known/jwks.json',
  jwk: null,
  allowed_services: ['patient-view'],
  allowed_fhir_servers: ['https://fhir.example.org/r4'],
  is_active: true,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  ...o,
});

describe('CDS clients (admin console)', () => {
  it('lists the registered EHRs with key, services, FHIR servers and status', async () => {
    adminApiMock({
      'GET /api/cds-clients': listOf('cds-clients', [
        client(),
        client({ id: 'c-2', name: 'Direct EHR', jwks_url: null, jwk: { kty: 'EC' }, allowed_fhir_servers: [], is_active: false }),
      ]),
    });
    renderApp('/admin/cds-clients');
    expect(await screen.findByRole('heading', { name: 'CDS Clients' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Example EHR')).toBeInTheDocument();
    expect(within(table).getByText('JWKS: https://ehr.example.org/.well-known/jwks.json')).toBeInTheDocument();
    expect(within(table).getByText('https://fhir.example.org/r4')).toBeInTheDocument();
    expect(within(table).getByText('Public JWK')).toBeInTheDocument();
    expect(within(table).getByText('Inactive')).toBeInTheDocument();
  });

  it('says in words that no EHR is registered yet, not the resource id', async () => {
    adminApiMock({ 'GET /api/cds-clients': listOf('cds-clients', []) });
    renderApp('/admin/cds-clients');
    expect(await screen.findByText('No EHR is registered yet. Register one to let it call the CDS Hooks services.')).toBeInTheDocument();
    expect(screen.queryByText(/Cds-clients/)).not.toBeInTheDocument();
  });

  it('registers a client with a public JWK and FHIR servers one per line; a JWK that is not JSON is refused before sending', async () => {
    const api = adminApiMock({
      'GET /api/cds-clients': listOf('cds-clients', []),
      'POST /api/cds-clients': (req) => json(201, client({ id: 'c-9', ...(req.body as object) })),
    });
    renderApp('/admin/cds-clients/create');
    expect(await screen.findByRole('heading', { level: 1, name: 'Register CDS client' })).toBeInTheDocument();
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Clinic EHR');
    await userEvent.type(screen.getByLabelText(/^Issuer/), 'https://clinic.example.org');
    // patient-view is ticked from the start; with no service ticked the form refuses to save.
    expect(screen.getByLabelText('patient-view')).toBeChecked();
    await userEvent.click(screen.getByLabelText('patient-view'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Choose at least one service/)).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('patient-view'));
    const jwk = screen.getByLabelText('Public JWK');
    await userEvent.type(jwk, 'not json');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/The public JWK must be JSON/)).toBeInTheDocument();
    expect(api.callsTo('POST /api/cds-clients')).toHaveLength(0);

    await userEvent.clear(jwk);
    await userEvent.click(jwk);
    await userEvent.paste('{"kty":"EC","crv":"P-384","x":"abc","y":"def"}');
    await userEvent.type(
      screen.getByLabelText('Allowed FHIR servers'),
      ' https://fhir.clinic.org/r4{Enter}{Enter}https://fhir2.clinic.org',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('POST /api/cds-clients')).toHaveLength(1));
    expect(api.callsTo('POST /api/cds-clients')[0].body).toEqual({
      name: 'Clinic EHR',
      issuer: 'https://clinic.example.org',
      jwk: { kty: 'EC', crv: 'P-384', x: 'abc', y: 'def' },
      allowed_services: ['patient-view'],
      allowed_fhir_servers: ['https://fhir.clinic.org/r4', 'https://fhir2.clinic.org'],
      is_active: true,
    });
  });

  it("edits a client, sending only the writable fields, and shows the server's refusal", async () => {
    const api = adminApiMock({
      'GET /api/cds-clients': listOf('cds-clients', [client()]),
      'GET /api/cds-clients/c-1': json(200, client()),
      'PUT /api/cds-clients/c-1': apiError(409, 'conflict', 'A CDS client with issuer https://other.example.org is already registered'),
    });
    renderApp('/admin/cds-clients/c-1');
    const issuer = await screen.findByLabelText(/^Issuer/);
    await waitFor(() => expect(issuer).toHaveValue('https://ehr.example.org'));
    await userEvent.clear(issuer);
    await userEvent.type(issuer, 'https://other.example.org');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /api/cds-clients/c-1')).toHaveLength(1));
    expect(Object.keys(api.callsTo('PUT /api/cds-clients/c-1')[0].body as object).sort()).toEqual(
      ['allowed_fhir_servers', 'allowed_services', 'is_active', 'issuer', 'jwk', 'jwks_url', 'name'].sort(),
    );
    expect(await screen.findByText(/already registered/)).toBeInTheDocument();
  });

  it('deletes a client after confirmation', async () => {
    const api = adminApiMock({
      'GET /api/cds-clients': listOf('cds-clients', [client()]),
      'DELETE /api/cds-clients/c-1': json(200, client()),
    });
    renderApp('/admin/cds-clients');
    const table = await screen.findByRole('table');
    await userEvent.click(await within(table).findByRole('button', { name: 'Delete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(api.callsTo('DELETE /api/cds-clients/c-1')).toHaveLength(1));
  });
});
