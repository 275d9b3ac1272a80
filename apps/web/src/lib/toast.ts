import toast from 'react-hot-toast';
import { errorMessage } from './api-error';

/**
 * Shows an error toast with the server's sentence or the fallback. The id keeps one toast per
 * kind of failure, so a query that fails on every refetch does not stack copies.
 */
export function toastError(error: unknown, fallback: string, id?: string): string {
  return toast.error(errorMessage(error, fallback), id ? { id } : undefined);
}

export { toast };
