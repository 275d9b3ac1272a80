import { Download } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { Modal, ModalActions } from '@/components/ui/modal';
import { API_BASE, apiClient } from '@/lib/api-client';
import { wallNow, wallToIso, parseWall } from '@/lib/zoned-time';

/**
 * "Export CSV" on the posts library (docs/queue-and-import.md#csv-export): the posts of a date
 * range (in the zone the user works in), downloaded as the server streams it.
 */
export function ExportPostsButton({ orgId, zone }: { orgId: string; zone: string }) {
  const [open, setOpen] = useState(false);
  const today = wallNow(zone);
  const [from, setFrom] = useState(today.subtract(30, 'day').format('YYYY-MM-DD'));
  const [to, setTo] = useState(today.add(30, 'day').format('YYYY-MM-DD'));
  const valid = Boolean(from && to && to >= from);

  const download = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    const search = new URLSearchParams({
      from: wallToIso(parseWall(from).startOf('day'), zone),
      to: wallToIso(parseWall(to).add(1, 'day').startOf('day'), zone),
    });
    try {
      // Refreshes an access token that expired while the page was open.
      await apiClient.get('/auth/me');
    } catch {
      // The download itself will say what is wrong.
    }
    const link = document.createElement('a');
    link.href = `${API_BASE}/organizations/${encodeURIComponent(orgId)}/posts/export.csv?${search}`;
    link.download = '';
    link.click();
    setOpen(false);
  };

  return (
    <>
      <Button type="button" variant="secondary" onClick={() => setOpen(true)}>
        <Download className="size-4" aria-hidden="true" />
        Export CSV
      </Button>
      <Modal
        open={open}
        onOpenChange={setOpen}
        title="Export posts as CSV"
        description={`Posts whose date falls in the range (${zone}), with their statuses, accounts, networks and links.`}
        size="sm"
      >
        <form onSubmit={(e) => void download(e)} noValidate className="mt-4 grid gap-4">
          <TextField
            label="From"
            type="date"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
          <TextField
            label="To (included)"
            type="date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={
              from && to && to < from ? 'The end date must not be before the start.' : undefined
            }
          />
          <ModalActions>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!valid}>
              <Download className="size-4" aria-hidden="true" />
              Download CSV
            </Button>
          </ModalActions>
        </form>
      </Modal>
    </>
  );
}
