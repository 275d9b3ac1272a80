import { IMPORT_COLUMNS, IMPORT_MAX_ROWS, type ImportMode, type ImportRow } from '@herald/contract';
import { CheckCircle2, FileUp, Upload, XCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { useCan } from '@/lib/permissions';
import { toast } from '@/lib/toast';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import { formatInZone } from '@/lib/zoned-time';
import { useImportDryRun, useImportPosts } from '../api/import';

/** The file's text (FileReader: every browser has it, and so do the tests' DOM). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}

const MODE_LABELS: Record<ImportMode, string> = {
  draft: 'As drafts',
  schedule: 'Scheduled at their time',
};

function RowResult({ row, zone }: { row: ImportRow; zone: string }) {
  return (
    <li className="flex flex-col gap-1 p-3 sm:flex-row sm:gap-4">
      <div className="flex w-28 shrink-0 items-center gap-2">
        {row.ok ? (
          <CheckCircle2 className="size-4 text-emerald-600" aria-hidden="true" />
        ) : (
          <XCircle className="size-4 text-red-600" aria-hidden="true" />
        )}
        <span className="text-sm font-semibold text-slate-900">{`Row ${row.row}`}</span>
        <span className="sr-only">{row.ok ? 'ready' : 'refused'}</span>
      </div>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm text-slate-900">{row.text || '(no text)'}</p>
        <p className="text-xs break-words text-slate-600">
          {[
            row.accounts.join(', ') || 'No account',
            // The zone named on each row too: the server read the file's wall times in it.
            row.scheduledAt
              ? `${formatInZone(row.scheduledAt, zone, 'MMM D, YYYY h:mm A')} (${zone})`
              : 'No time',
            row.mediaCount > 0 ? `${row.mediaCount} media` : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
        {row.messages.length > 0 && (
          <ul className="mt-1 list-disc pl-5 text-sm break-words text-red-700">
            {row.messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}

/**
 * /content/import (docs/queue-and-import.md#csv-import): upload a CSV, see each row checked
 * with the composer's rules (a dry run that writes nothing), then import the valid rows.
 */
export function ImportPostsPage() {
  const { currentOrgId } = useAuth();
  const orgId = currentOrgId ?? '';
  const { zone, source: zoneSource } = useTimeZoneRule();
  const canImport = useCan('POST /organizations/:orgId/posts/import');
  const dryRun = useImportDryRun(orgId);
  const importPosts = useImportPosts(orgId);
  const [file, setFile] = useState<{ name: string; csv: string } | null>(null);
  const [mode, setMode] = useState<ImportMode>('schedule');
  const fileId = useId();

  const check = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    importPosts.reset();
    dryRun.mutate({ csv: file.csv, mode });
  };
  const result = dryRun.data?.data;
  const imported = importPosts.data?.data;

  if (!canImport) {
    return (
      <div className="mx-auto max-w-3xl">
        <Alert>You need the Create Posts permission to import posts.</Alert>
      </div>
    );
  }

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <title>Import posts · Herald</title>
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Import posts from CSV</h1>
        <p className="mt-1 text-slate-600">
          Check the file first: each row is validated with the same rules as the composer. Then
          import the rows that pass, as drafts or scheduled.
        </p>
        <TimeZoneNote zone={zone} source={zoneSource} className="mt-1" />
      </header>

      <form
        onSubmit={check}
        noValidate
        className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <div>
          <label htmlFor={fileId} className="block text-sm font-medium text-slate-800">
            CSV file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              dryRun.reset();
              importPosts.reset();
              if (!chosen) return setFile(null);
              void readText(chosen).then((csv) => setFile({ name: chosen.name, csv }));
            }}
            className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:font-semibold file:text-indigo-700"
          />
          <p className="mt-1 text-xs text-slate-600">
            {`Up to ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows. The first line names the columns.`}
          </p>
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Import the rows</legend>
          <div className="mt-2 flex flex-wrap gap-4">
            {(Object.keys(MODE_LABELS) as ImportMode[]).map((value) => (
              <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  name="mode"
                  value={value}
                  checked={mode === value}
                  onChange={() => {
                    setMode(value);
                    dryRun.reset();
                  }}
                />
                {MODE_LABELS[value]}
              </label>
            ))}
          </div>
        </fieldset>
        <details className="text-sm text-slate-700">
          <summary className="cursor-pointer font-medium text-indigo-700">The columns</summary>
          <dl className="mt-2 grid gap-2">
            {IMPORT_COLUMNS.map((column) => (
              <div key={column.name}>
                <dt className="font-mono text-xs font-semibold text-slate-900">{column.name}</dt>
                <dd className="text-slate-600">{column.help}</dd>
              </div>
            ))}
          </dl>
        </details>
        <div className="flex flex-wrap justify-end gap-3">
          <ButtonLink to={paths.content} variant="secondary">
            Back to posts
          </ButtonLink>
          <Button type="submit" disabled={!file || dryRun.isPending}>
            {dryRun.isPending ? (
              <Spinner className="size-4 text-white" />
            ) : (
              <FileUp className="size-4" aria-hidden="true" />
            )}
            Check file
          </Button>
        </div>
      </form>

      {dryRun.isError && (
        <Alert>
          <p>{errorMessage(dryRun.error, 'Could not check the file. Please try again.')}</p>
        </Alert>
      )}

      {result && (
        <section
          aria-labelledby="dry-run-heading"
          className="rounded-2xl border border-slate-200 bg-white shadow-sm"
        >
          <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-center">
            <div className="sm:mr-auto">
              <h2 id="dry-run-heading" className="text-lg font-semibold text-slate-900">
                Check of {file?.name}
              </h2>
              <p className="text-sm text-slate-600" aria-live="polite">
                {`${result.valid} row${result.valid === 1 ? '' : 's'} ready, ${result.invalid} refused.`}
              </p>
            </div>
            {!imported && (
              <Button
                type="button"
                disabled={result.valid === 0 || importPosts.isPending}
                onClick={() =>
                  file &&
                  importPosts.mutate(
                    { csv: file.csv, mode },
                    {
                      onSuccess: (res) =>
                        toast.success(
                          `Imported ${res.data.imported} post${res.data.imported === 1 ? '' : 's'}.`,
                        ),
                    },
                  )
                }
              >
                {importPosts.isPending ? (
                  <Spinner className="size-4 text-white" />
                ) : (
                  <Upload className="size-4" aria-hidden="true" />
                )}
                {`Import ${result.valid} row${result.valid === 1 ? '' : 's'}`}
              </Button>
            )}
          </div>
          {importPosts.isError && (
            <p role="alert" className="p-4 text-sm text-red-700">
              {errorMessage(importPosts.error, 'Could not import the rows. Please try again.')}
            </p>
          )}
          {imported && (
            <div className="border-b border-slate-200 p-4 text-sm" role="status">
              <p className="font-semibold text-slate-900">
                {`Imported ${imported.imported} post${imported.imported === 1 ? '' : 's'}.`}
              </p>
              {imported.refused.length > 0 && (
                <ul className="mt-1 list-disc pl-5 break-words text-red-700">
                  {imported.refused.map((r) => (
                    <li key={r.row}>{r.message}</li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <ul className="divide-y divide-slate-100">
            {result.rows.map((row) => (
              <RowResult key={row.row} row={row} zone={zone} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
