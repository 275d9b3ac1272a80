import {
  EmptySuccessSchema,
  ReportScheduleResponseSchema,
  ReportSchedulesResponseSchema,
  SendReportNowResponseSchema,
  type CreateReportScheduleRequest,
  type UpdateReportScheduleRequest,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const schedulesKey = (orgId: string) => ['report-schedules', orgId] as const;
const pathOf = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/report-schedules`;

/** `GET …/report-schedules` (org:manage): the report emails and whether email can be sent. */
export function useReportSchedules(orgId: string) {
  return useQuery({
    queryKey: schedulesKey(orgId),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(pathOf(orgId), {
        schema: ReportSchedulesResponseSchema,
        signal,
      });
      return data;
    },
  });
}

/** Creates (no id) or changes (with its id) a report email; the list is read again. */
export function useSaveReportSchedule(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      input:
        | { id: null; body: CreateReportScheduleRequest }
        | { id: string; body: UpdateReportScheduleRequest },
    ) => {
      const { data } =
        input.id === null
          ? await apiClient.post(pathOf(orgId), input.body, {
              schema: ReportScheduleResponseSchema,
            })
          : await apiClient.patch(`${pathOf(orgId)}/${encodeURIComponent(input.id)}`, input.body, {
              schema: ReportScheduleResponseSchema,
            });
      return data.schedule;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesKey(orgId) }),
  });
}

/** `DELETE …/report-schedules/{id}`. */
export function useDeleteReportSchedule(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiClient.delete(`${pathOf(orgId)}/${encodeURIComponent(id)}`, {
        schema: EmptySuccessSchema,
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesKey(orgId) }),
  });
}

/** `POST …/report-schedules/{id}/send`: the last complete period's report, now. */
export function useSendReportNow(orgId: string) {
  return useMutation({
    mutationFn: async (id: string) => {
      const { data } = await apiClient.post(
        `${pathOf(orgId)}/${encodeURIComponent(id)}/send`,
        undefined,
        { schema: SendReportNowResponseSchema },
      );
      return data;
    },
  });
}
