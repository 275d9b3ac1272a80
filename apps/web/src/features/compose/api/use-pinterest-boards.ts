import {
  PinterestBoardResponseSchema,
  PinterestBoardsResponseSchema,
  type CreatePinterestBoard,
} from '@herald/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const pinterestBoardsKey = (orgId: string, integrationId: string) =>
  ['pinterest-boards', orgId, integrationId] as const;

const boardsPath = (orgId: string, integrationId: string) =>
  `/organizations/${orgId}/integrations/${integrationId}/pinterest/boards`;

/** `GET …/pinterest/boards`: the boards a pin of this account may be saved on. */
export function usePinterestBoards(orgId: string, integrationId: string) {
  return useQuery({
    queryKey: pinterestBoardsKey(orgId, integrationId),
    queryFn: async () =>
      (
        await apiClient.get(boardsPath(orgId, integrationId), {
          schema: PinterestBoardsResponseSchema,
        })
      ).data.boards,
    staleTime: 60_000,
    retry: false,
  });
}

/** `POST …/pinterest/boards`: a new board, added to the list once Pinterest made it. */
export function useCreatePinterestBoard(orgId: string, integrationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (board: CreatePinterestBoard) =>
      (
        await apiClient.post(boardsPath(orgId, integrationId), board, {
          schema: PinterestBoardResponseSchema,
        })
      ).data.board,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: pinterestBoardsKey(orgId, integrationId) }),
  });
}
