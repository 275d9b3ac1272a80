import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NetworkMark, NetworkMarks } from './network-mark';

describe('NetworkMark', () => {
  it('is announced as "{name} logo", or says a network has no icon of its own', () => {
    render(
      <>
        <NetworkMark name="TikTok" label="logo" />
        <NetworkMark name="Friendica" label="logo" />
      </>,
    );
    expect(screen.getByRole('img', { name: 'TikTok logo' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Friendica (no icon of its own)' })).toBeInTheDocument();
  });

  it('draws X for the old Twitter name, in the same colours', () => {
    render(
      <>
        <NetworkMark name="Twitter" label="name" />
        <NetworkMark name="X" label="name" />
      </>,
    );
    const [twitter, x] = [
      screen.getByRole('img', { name: 'Twitter' }),
      screen.getByRole('img', { name: 'X' }),
    ];
    expect(twitter.className).toBe(x.className);
    expect(twitter.innerHTML).toBe(x.innerHTML);
  });

  it('is hidden from screen readers when the name is written beside it', () => {
    const { container } = render(<NetworkMark name="Facebook" />);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(container.firstElementChild).toHaveAttribute('aria-hidden', 'true');
  });

  it("lists a post's networks by name, in order, and nothing for none", () => {
    const { rerender } = render(
      <NetworkMarks
        platforms={[
          { id: 'p1', name: 'LinkedIn' },
          { id: 'p2', name: 'Threads' },
        ]}
      />,
    );
    const list = screen.getByRole('list', { name: 'Platforms' });
    expect(
      [...list.querySelectorAll('[role="img"]')].map((n) => n.getAttribute('aria-label')),
    ).toEqual(['LinkedIn', 'Threads']);
    rerender(<NetworkMarks platforms={[]} />);
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });
});
