import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { API_BASE, apiClient } from '@/lib/api-client';
import { apiErrorFrom } from '@/lib/api-error';
import { toast, toastError } from '@/lib/toast';

export const REPORT_FAILED = 'The report could not be made. Please try again.';

/** The file name the server gave (`attachment; filename="…"`), else a plain one. */
function fileNameOf(disposition: string | null): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? 'report.pdf';
}

/**
 * docs/reports.md#the-pdf: the range and filters on screen as a branded PDF, made by the server.
 * It takes a moment, so the button says so; a refusal (a bad range, an account removed) is the
 * server's sentence in a toast rather than a broken file on disk. A signed-in call goes first, so
 * an access token that expired while the page was open is refreshed instead of failing.
 */
export function ReportDownloadButton({ orgId, search }: { orgId: string; search: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await apiClient.get('/auth/me').catch(() => {});
      const response = await fetch(
        `${API_BASE}/organizations/${encodeURIComponent(orgId)}/reports/pdf?${search}`,
        { credentials: 'include' },
      );
      if (!response.ok) throw apiErrorFrom(response.status, await response.text());
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileNameOf(response.headers.get('content-disposition'));
      link.click();
      // The browser has the file once the click is handled; the blob can go a little later.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      toast.success('Report downloaded.');
    } catch (error) {
      toastError(error, REPORT_FAILED);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" size="sm" onClick={() => void download()} disabled={busy}>
      {busy ? <Spinner className="size-4" /> : <FileDown className="size-4" aria-hidden="true" />}
      {busy ? 'Preparing report…' : 'Download report (PDF)'}
    </Button>
  );
}
