import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { integrationKeys } from '@/lib/integrations';
import { toast } from '@/lib/toast';

/** The query parameters a network's consent flow sends the browser back to /settings with. */
const RETURN_PARAMS = ['connected', 'pick', 'connectError', 'platform'] as const;

export interface ConnectFailure {
  message: string;
  platform: string | null;
}

export interface PendingChoice {
  pendingId: string;
  platform: string;
}

/**
 * Handles the way back from a network's consent page, once: `?connected=` says so and reloads
 * the accounts, `?pick=` opens the account picker, `?connectError=` keeps the server's sentence
 * on screen. The parameters then leave the URL, so a reload does not repeat any of it.
 */
export function useConnectReturn(orgId: string | null) {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<ConnectFailure | null>(null);
  const [choice, setChoice] = useState<PendingChoice | null>(null);
  const connected = searchParams.get('connected');
  const pick = searchParams.get('pick');
  const connectError = searchParams.get('connectError');
  const platform = searchParams.get('platform');

  useEffect(() => {
    if (!connected && !pick && !connectError) return;
    if (connected) {
      toast.success(`${connected} connected successfully.`, { id: 'connect-return' });
      setFailure(null);
      if (orgId) void queryClient.invalidateQueries({ queryKey: integrationKeys.org(orgId) });
    } else if (pick) {
      setFailure(null);
      setChoice({ pendingId: pick, platform: platform ?? 'the network' });
    } else if (connectError) {
      setFailure({ message: connectError, platform });
    }
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const key of RETURN_PARAMS) next.delete(key);
        return next;
      },
      { replace: true },
    );
  }, [connected, pick, connectError, platform, orgId, queryClient, setSearchParams]);

  return {
    failure,
    dismissFailure: () => setFailure(null),
    choice,
    closeChoice: () => setChoice(null),
  };
}
