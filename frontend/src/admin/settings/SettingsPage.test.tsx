import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, renderApp } from '../../test/helpers';
import { adminApiMock } from '../test/adminHelpers';

describe('Admin settings', () => {
  it('shows the mode, the version and the polishing provider and queue', async () => {
    adminApiMock({
      'GET /api/health': json(200, {
        status: 'ok',
        database: 'up',
        queue: 'up',
        mode: { database: 'embedded', queue: 'in-process' },
        version: '1.4.2',
      }),
      'GET /api/polish/status': json(200, {
        driver: 'in-process',
        provider: 'built-in',
        counts: { waiting: 2, active: 1, completed: 40, failed: 0, delayed: 0 },
      }),
    });
    renderApp('/admin/settings');
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    const instance = screen.getByRole('region', { name: 'Instance' });
    expect(await within(instance).findByText('1.4.2')).toBeInTheDocument();
    expect(within(instance).getByText(/Embedded \(PGlite/)).toBeInTheDocument();
    const polish = screen.getByRole('region', { name: 'Question polishing' });
    expect(await within(polish).findByText('Built-in wording (no language model configured)')).toBeInTheDocument();
    expect(within(polish).getByText('40')).toBeInTheDocument();
    expect(screen.queryByText('Coming Soon')).not.toBeInTheDocument();
  });
});
