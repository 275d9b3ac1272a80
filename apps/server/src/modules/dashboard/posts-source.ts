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

/** Before the posts module is installed an organization has no posts. */
export const noPosts: DashboardPostSource = {
  async summary() {
    return { total: 0, upcoming: 0, recent: [] };
  },
};
