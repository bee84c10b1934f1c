import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import Dialog from '@mui/material/Dialog';
import { Toaster } from './Toaster';
import { clearToasts, PRIMARY_ACTION, toast } from './toast';

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

  it('moves to the top, below the header, while at the bottom it would cover the page’s primary action, also one rendered after the toast', async () => {
    window.innerHeight = 740;
    const at = (top: number) => ({ top, bottom: top + 40, left: 16, right: 374, width: 358, height: 40, x: 16, y: top }) as DOMRect;
    let actionTop = 660; // low on the first screen, as "Request PCP Access" after sign-up on a phone
    const Page = ({ signedUp }: { signedUp: boolean }) => (
      <>
        <header ref={(el) => void (el && (el.getBoundingClientRect = () => ({ ...at(0), bottom: 61 })))}>Dashboard</header>
        {signedUp && (
          <button type="button" {...PRIMARY_ACTION} ref={(el) => void (el && (el.getBoundingClientRect = () => at(actionTop)))}>
            Request PCP Access
          </button>
        )}
        <Toaster />
      </>
    );
    // The toast is raised on the sign-up page; the dashboard and its action render afterwards.
    const { rerender } = render(<Page signedUp={false} />);
    const stack = screen.getByRole('region', { name: 'Notifications' });
    Object.defineProperty(stack, 'offsetHeight', { configurable: true, value: 93 });
    act(() => {
      toast({ title: 'Account created successfully!', variant: 'success' });
    });
    expect(stack).not.toHaveClass('toasts--top');
    rerender(<Page signedUp />);
    await waitFor(() => expect(stack).toHaveClass('toasts--top'));
    expect(stack.style.top).toBe('69px'); // 8 px below the header, clear of its Sign Out
    actionTop = 300; // scrolled: the action is now well above the stack
    act(() => {
      window.dispatchEvent(new Event('scroll'));
    });
    expect(stack).not.toHaveClass('toasts--top');
    act(() => clearToasts());
  });
});
