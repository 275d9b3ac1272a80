import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createPost } from '../../testing/post-fixtures';
import { landing, RescheduleDialog } from './reschedule-dialog';

const ZONE = 'America/New_York';
const launch = createPost({
  id: 'post_launch',
  title: 'Spring launch',
  status: 'scheduled',
  // Saturday 09:00 EST.
  scheduledAt: '2030-03-09T14:00:00.000Z',
});
const menu = createPost({
  id: 'post_menu',
  title: 'New menu',
  status: 'failed',
  scheduledAt: '2030-03-11T22:30:00.000Z',
});

function renderDialog(selected = [launch, menu], error: string | null = null) {
  const onSubmit = vi.fn();
  const onClose = vi.fn();
  render(
    <RescheduleDialog
      open
      selected={selected}
      zone={ZONE}
      isPending={false}
      error={error}
      onSubmit={onSubmit}
      onClose={onClose}
    />,
  );
  return { user: userEvent.setup(), onSubmit, onClose };
}

describe('where a post lands', () => {
  it('keeps its time on the clocks, across the spring-forward change', () => {
    // Saturday 09:00 EST → Monday 09:00 EDT (2030-03-10 is the change).
    expect(new Date(landing(launch, { shiftDays: 2 }, ZONE)!).toISOString()).toBe(
      '2030-03-11T13:00:00.000Z',
    );
    expect(new Date(landing(launch, { date: '2030-03-01' }, ZONE)!).toISOString()).toBe(
      '2030-03-01T14:00:00.000Z',
    );
    expect(landing(createPost({ scheduledAt: null }), { shiftDays: 1 }, ZONE)).toBeNull();
  });
});

describe('the reschedule dialog', () => {
  it('previews each post at its new time and sends the day chosen', async () => {
    const { user, onSubmit } = renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Reschedule 2 posts' });
    const day = within(dialog).getByLabelText('Day');
    await user.clear(day);
    await user.type(day, '2030-03-20');
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    expect(preview).toHaveTextContent('Spring launchMar 9, 2030 9:00 AM → Mar 20, 2030 9:00 AM');
    expect(preview).toHaveTextContent('New menuMar 11, 2030 6:30 PM → Mar 20, 2030 6:30 PM');
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule' }));
    expect(onSubmit).toHaveBeenCalledWith({ date: '2030-03-20' });
  });

  it('refuses to send a move into the past, saying how many posts would land there', async () => {
    // Within a year from now, so that a year earlier has passed.
    const soon = (days: number, id: string) =>
      createPost({ id, scheduledAt: new Date(Date.now() + days * 86_400_000).toISOString() });
    const { user, onSubmit } = renderDialog([soon(3, 'a'), soon(30, 'b')]);
    await user.click(screen.getByRole('radio', { name: /Shift by days/ }));
    const days = screen.getByLabelText('Days');
    await user.clear(days);
    await user.type(days, '-365');
    expect(screen.getByRole('alert')).toHaveTextContent(
      '2 posts would move into the past. Pick a later day.',
    );
    expect(screen.getAllByText(/\(in the past\)/)).toHaveLength(2);
    const submit = screen.getByRole('button', { name: 'Reschedule' });
    expect(submit).toBeDisabled();
    await user.clear(days);
    await user.type(days, '400');
    expect(screen.getByText('Shift by at most 365 days.')).toBeInTheDocument();
    await user.clear(days);
    await user.type(days, '7');
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledWith({ shiftDays: 7 });
  });

  it('shows the server’s sentence and lists at most five posts', () => {
    const many = Array.from({ length: 7 }, (_, i) =>
      createPost({ id: `p${i}`, title: `Post ${i}`, scheduledAt: '2030-03-09T14:00:00.000Z' }),
    );
    renderDialog(many, "'Post 3' is already published and cannot be rescheduled.");
    expect(screen.getByRole('alert')).toHaveTextContent("'Post 3' is already published");
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getAllByRole('listitem')).toHaveLength(5);
    expect(preview).toHaveTextContent('And 2 posts more.');
  });
});
