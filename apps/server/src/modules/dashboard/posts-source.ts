import type { z } from 'zod';
import type { DashboardPostSchema } from '@herald/contract';

/** What the dashboard needs to know about an organization's posts. */
export interface DashboardPostSource {
  /** `accountIds`: only posts with a target on one of these accounts (null: every post). */
  summary(
    organizationId: string,
    accountIds?: string[] | null,
  ): Promise<{
    total: number;
    upcoming: number;
    recent: Array<z.infer<typeof DashboardPostSchema>>;
  }>;
}
