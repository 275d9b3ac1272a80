import {
  CopyQueueSlotsResponseSchema,
  EmptySlotsResponseSchema,
  NextSlotResponseSchema,
  QueueAccountResponseSchema,
  QueueResponseSchema,
  ReshuffleResponseSchema,
  type QueueSlot,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const orgPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}`;

/** `GET …/queue`: every account's weekly slots and the zone they are in. */
export function useQueue(orgId: string | null) {
  return useQuery({
    queryKey: ['queue', orgId] as const,
    queryFn: () => apiClient.get(`${orgPath(orgId!)}/queue`, { schema: QueueResponseSchema }),
    enabled: Boolean(orgId),
  });
}

export function useSaveSlots(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ integrationId, slots }: { integrationId: string; slots: QueueSlot[] }) =>
      apiClient.put(
        `${orgPath(orgId)}/queue/${encodeURIComponent(integrationId)}`,
        { slots },
        { schema: QueueAccountResponseSchema },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ['queue', orgId] }),
  });
}

/** `POST …/queue/{integrationId}/copy`: other accounts get this account's saved week. */
export function useCopySlots(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ from, to }: { from: string; to: string[] }) =>
      apiClient.post(
        `${orgPath(orgId)}/queue/${encodeURIComponent(from)}/copy`,
        { integrationIds: to },
        { schema: CopyQueueSlotsResponseSchema },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ['queue', orgId] }),
  });
}

export function useReshuffle(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (integrationId: string) =>
      apiClient.post(
        `${orgPath(orgId)}/queue/${encodeURIComponent(integrationId)}/reshuffle`,
        undefined,
        { schema: ReshuffleResponseSchema },
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['queue', orgId] });
      void client.invalidateQueries({ queryKey: ['posts'] });
    },
  });
}

/** `GET …/queue/next`: the time "Add to queue" would use for these accounts now. */
export function useNextSlot(orgId: string | null, integrationIds: string[]) {
  const ids = [...integrationIds].sort();
  return useQuery({
    queryKey: ['queue', orgId, 'next', ids] as const,
    queryFn: () =>
      apiClient.get(
        `${orgPath(orgId!)}/queue/next?integrationIds=${ids.map(encodeURIComponent).join(',')}`,
        { schema: NextSlotResponseSchema },
      ),
    enabled: Boolean(orgId) && ids.length > 0,
  });
}

/** `GET …/queue/slots`: the empty slots of the calendar's visible range. */
export function useEmptySlots(orgId: string | null, from: string | null, to: string | null) {
  return useQuery({
    queryKey: ['queue', orgId, 'slots', from, to] as const,
    queryFn: () =>
      apiClient.get(
        `${orgPath(orgId!)}/queue/slots?from=${encodeURIComponent(from!)}&to=${encodeURIComponent(to!)}`,
        { schema: EmptySlotsResponseSchema },
      ),
    enabled: Boolean(orgId && from && to),
  });
}
