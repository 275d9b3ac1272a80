import {
  AdminActivityResponseSchema,
  AdminOverviewResponseSchema,
  AuditLogResponseSchema,
} from '@herald/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { browserTimeZone } from '@/lib/time-zone';
import { adminKeys, queryString } from './admin-keys';

/** `GET /admin/overview`: how many users, platforms and plans there are. */
export function useAdminOverview() {
  return useQuery({
    queryKey: adminKeys.overview,
    queryFn: async () =>
      (await apiClient.get('/admin/overview', { schema: AdminOverviewResponseSchema })).data,
  });
}

/** The browser's time zone, so the chart's days are the operator's days. */
export const operatorTimeZone = (): string => browserTimeZone() ?? 'UTC';

/** `GET /admin/activity?timezone=`: sign-ups and posts per day, last 30 days. */
export function useAdminActivity(timezone: string) {
  return useQuery({
    queryKey: adminKeys.activity(timezone),
    queryFn: async () =>
      (
        await apiClient.get(`/admin/activity${queryString({ timezone })}`, {
          schema: AdminActivityResponseSchema,
        })
      ).data,
  });
}

export const AUDIT_PAGE_SIZE = 10;

/** `GET /admin/audit-log?page=`: operator actions, newest first. */
export function useAuditLog(page: number) {
  return useQuery({
    queryKey: adminKeys.auditLog(page),
    queryFn: async () => {
      const answer = await apiClient.get(
        `/admin/audit-log${queryString({ page, pageSize: AUDIT_PAGE_SIZE })}`,
        { schema: AuditLogResponseSchema },
      );
      return { entries: answer.data.entries, totalCount: answer.meta.totalCount };
    },
    placeholderData: keepPreviousData,
  });
}
