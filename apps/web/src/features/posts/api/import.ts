import {
  ImportDryRunResponseSchema,
  ImportResponseSchema,
  type ImportMode,
} from '@herald/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const importPath = (orgId: string) => `/organizations/${encodeURIComponent(orgId)}/posts/import`;

/** `POST …/posts/import/dry-run`: each row's result; nothing is written. */
export function useImportDryRun(orgId: string) {
  return useMutation({
    mutationFn: (body: { csv: string; mode: ImportMode }) =>
      apiClient.post(`${importPath(orgId)}/dry-run`, body, { schema: ImportDryRunResponseSchema }),
  });
}

/** `POST …/posts/import`: imports the valid rows. */
export function useImportPosts(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { csv: string; mode: ImportMode }) =>
      apiClient.post(importPath(orgId), body, { schema: ImportResponseSchema }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['posts'] });
      void client.invalidateQueries({ queryKey: ['queue'] });
    },
  });
}
