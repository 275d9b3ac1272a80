import toast from 'react-hot-toast';
import { errorMessage } from './api-error';

interface ErrorToastOptions {
  /** Keeps one toast per kind of failure: a query failing on every refetch does not stack. */
  id?: string;
  /** How long it stays, when the screen's rule differs from the default (docs/product.md#constants). */
  duration?: number;
}

/** Shows an error toast with the server's sentence or the fallback. */
export function toastError(
  error: unknown,
  fallback: string,
  options: string | ErrorToastOptions = {},
): string {
  const { id, duration } = typeof options === 'string' ? { id: options } : options;
  return toast.error(errorMessage(error, fallback), {
    ...(id ? { id } : {}),
    ...(duration ? { duration } : {}),
  });
}

export { toast };
