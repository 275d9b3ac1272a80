import { paths } from '@/config/paths';

interface Placeholder {
  path: string;
  title: string;
  description: string;
}

/**
 * Screens that later issues deliver. Each route already exists, so links and guards can be
 * tested now; an issue replaces its entry with the feature's real route component.
 */
export const shellPlaceholders: Placeholder[] = [];

export function toShellRoute({ path, title, description }: Placeholder) {
  return {
    path,
    lazy: async () => {
      const { NotYetAvailable } = await import('@/components/ui/not-yet-available');
      return {
        element: (
          <NotYetAvailable
            title={title}
            description={description}
            backTo={paths.dashboard}
            backLabel="Back to Dashboard"
          />
        ),
      };
    },
  };
}
