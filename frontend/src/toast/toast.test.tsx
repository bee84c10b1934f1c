import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import Dialog from '@mui/material/Dialog';
import { Toaster } from './Toaster';
import { toast } from './toast';

describe('toast', () => {
  it('defaults to the destructive variant (role alert) and can be closed from the keyboard', async () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Error', description: 'Failed to update profile' });
    });
    const t = screen.getByRole('alert');
    expect(t).toHaveAttribute('data-variant', 'destructive');
    expect(t).toHaveTextContent('Failed to update profile');
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Close notification' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('success toasts are status messages and dismiss themselves', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Profile updated', variant: 'success' });
    });
    expect(screen.getByRole('status')).toHaveAttribute('data-variant', 'success');
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('stays announced while a modal dialog hides the rest of the page (issue 10)', async () => {
    const { rerender } = render(
      <main>
        <Toaster />
      </main>,
    );
    rerender(
      <main>
        <Toaster />
        <Dialog open>
          <button type="button">Save</button>
        </Dialog>
      </main>,
    );
    await screen.findByRole('dialog');
    expect(screen.queryByRole('main')).not.toBeInTheDocument(); // the page behind is hidden from assistive technology
    act(() => {
      toast({ title: 'Error', description: 'Failed to update profile' });
    });
    const t = screen.getByRole('alert');
    expect(t).toHaveTextContent('Failed to update profile');
    expect(t.closest('[aria-hidden="true"]')).toBeNull();
  });
});
