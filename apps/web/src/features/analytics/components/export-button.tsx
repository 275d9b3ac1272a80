import { Download } from 'lucide-react';
import type { MouseEvent } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { API_BASE, apiClient } from '@/lib/api-client';

/**
 * A CSV export (docs/analytics.md#csv-export): a plain download of the streamed file (the browser
 * writes it to disk as it arrives). A cheap signed-in call goes first, so an access token that
 * expired while the page was open is refreshed by the API client instead of the download failing
 * with 401. `file` is the export's route: the post metrics or the account series.
 */
export function ExportButton({
  orgId,
  search,
  file = 'export.csv',
  label = 'Export posts CSV',
}: {
  orgId: string;
  search: string;
  file?: 'export.csv' | 'accounts.csv';
  label?: string;
}) {
  const href = `${API_BASE}/organizations/${encodeURIComponent(orgId)}/analytics/${file}?${search}`;
  const download = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    try {
      await apiClient.get('/auth/me');
    } catch {
      // The download itself will say what is wrong.
    }
    const link = document.createElement('a');
    link.href = href;
    link.download = '';
    link.click();
  };
  return (
    <a href={href} download onClick={download} className={buttonClasses('secondary', 'sm')}>
      <Download className="size-4" aria-hidden="true" />
      {label}
    </a>
  );
}
