import type { z } from 'zod';
import type { DashboardPostSchema } from '@herald/contract';

/** What the dashboard needs to know about an organization's posts. */
export interface DashboardPostSource {
  summary(organizationId: string): Promise<{
    total: number;
    upcoming: number;
    recent: Array<z.infer<typeof DashboardPostSchema>>;
  }>;
}
