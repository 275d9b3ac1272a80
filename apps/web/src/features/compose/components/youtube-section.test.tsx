import type { YouTubePostSettings } from '@herald/contract';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { ComposePlatform } from '../utils/compose-platforms';
import { initialComposeState } from '../utils/compose-state';
import { emptyYouTubeSettings, useYouTubeSettings, YouTubeSection } from './youtube-section';

const channel = {
  id: 'int_yt',
  platformId: 'plt_yt',
  name: 'YouTube',
  label: 'YouTube',
} as ComposePlatform;

const OPTION = 'YouTube publishes at the scheduled time';

function Harness({
  laterTime,
  start = {},
}: {
  laterTime: boolean;
  start?: Partial<YouTubePostSettings>;
}) {
  const [settings, setSettings] = useState<Record<string, YouTubePostSettings>>({
    [channel.id]: { ...emptyYouTubeSettings(), ...start },
  });
  return (
    <>
      <YouTubeSection
        selected={[channel]}
        settings={settings}
        onChange={(id, next) => setSettings((all) => ({ ...all, [id]: next }))}
        mediaOf={() => []}
        showProblems={false}
        laterTime={laterTime}
      />
      <output data-testid="chosen">{String(settings[channel.id]!.scheduleOnYouTube)}</output>
    </>
  );
}

describe('the YouTube section’s “YouTube publishes at the scheduled time”', () => {
  it('is offered for a public video scheduled for later, with a hint that it uploads now as private', () => {
    render(<Harness laterTime />);
    const option = screen.getByRole('checkbox', { name: OPTION });
    expect(option).not.toBeChecked();
    expect(option).toHaveAccessibleDescription(
      /Herald uploads the video now, as private, and YouTube makes it public at the scheduled time/,
    );
    fireEvent.click(option);
    expect(screen.getByTestId('chosen')).toHaveTextContent('true');
  });

  it('is not offered for a video going out at once, nor for an unlisted or private one', () => {
    const { unmount } = render(<Harness laterTime={false} />);
    expect(screen.queryByRole('checkbox', { name: OPTION })).toBeNull();
    unmount();
    render(<Harness laterTime />);
    fireEvent.change(screen.getByLabelText('Visibility'), { target: { value: 'unlisted' } });
    expect(screen.queryByRole('checkbox', { name: OPTION })).toBeNull();
  });
});

describe('useYouTubeSettings', () => {
  const chosen = { ...emptyYouTubeSettings(), title: 'Walk', madeForKids: false };
  const settle = (action: 'schedule' | 'publish', settings: Partial<YouTubePostSettings>) => {
    const state = { ...initialComposeState('2030-03-01T10:00'), action };
    const { result } = renderHook(() => useYouTubeSettings(state, [channel], undefined));
    act(() => result.current.change(channel.id, { ...chosen, ...settings }));
    return result.current;
  };

  it('sends the choice for a public video scheduled for later', () => {
    const youtube = settle('schedule', { scheduleOnYouTube: true });
    expect(youtube.laterTime).toBe(true);
    expect(youtube.forDraft()[channel.id]?.scheduleOnYouTube).toBe(true);
    expect(youtube.isReady()).toBe(true);
  });

  it('does not send a choice left from before the post went out at once or stopped being public', () => {
    const now = settle('publish', { scheduleOnYouTube: true });
    expect(now.laterTime).toBe(false);
    expect(now.forDraft()[channel.id]?.scheduleOnYouTube).toBe(false);
    const unlisted = settle('schedule', { scheduleOnYouTube: true, privacyStatus: 'unlisted' });
    expect(unlisted.forDraft()[channel.id]?.scheduleOnYouTube).toBe(false);
    // Sent as it will go: nothing for the member to fix.
    expect(unlisted.isReady()).toBe(true);
  });
});
