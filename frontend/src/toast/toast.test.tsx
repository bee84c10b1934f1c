import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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
});
