import { act, render, screen } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_LIMIT } from '@/config/toast';
import { AppToaster } from './toaster';

afterEach(() => {
  vi.useRealTimers();
});

// A dismissed toast leaves the DOM after react-hot-toast's exit animation delay.
const REMOVE_DELAY = 1100;

/** One act per step: React only schedules the removal timer after the dismissal renders. */
async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

describe('toasts', () => {
  it(`keeps at most ${TOAST_LIMIT} toasts on screen, dropping the oldest`, async () => {
    render(<AppToaster />);
    act(() => {
      for (let i = 1; i <= 25; i++) toast(`Message ${i}`);
    });

    expect(await screen.findByText('Message 25')).toBeInTheDocument();
    expect(screen.getAllByText(/^Message \d+$/).length).toBeLessThanOrEqual(TOAST_LIMIT);
    expect(screen.queryByText('Message 1')).not.toBeInTheDocument();
  });

  it('shows success for 2 seconds and errors for 4 seconds', async () => {
    vi.useFakeTimers();
    render(<AppToaster />);
    act(() => {
      toast.success('Saved');
      toast.error('Could not save');
    });
    expect(screen.getByText('Saved')).toBeInTheDocument();

    await advance(1900);
    expect(screen.getByText('Saved')).toBeInTheDocument();
    await advance(200);
    await advance(REMOVE_DELAY);
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    expect(screen.getByText('Could not save')).toBeInTheDocument();

    await advance(1000);
    await advance(REMOVE_DELAY);
    expect(screen.queryByText('Could not save')).not.toBeInTheDocument();
  });

  it('keeps loading toasts until they are replaced', async () => {
    vi.useFakeTimers();
    render(<AppToaster />);
    act(() => {
      toast.loading('Uploading…');
    });
    await advance(60_000);
    expect(screen.getByText('Uploading…')).toBeInTheDocument();
  });
});
