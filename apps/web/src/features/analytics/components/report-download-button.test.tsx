import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppToaster } from '@/components/ui/toaster';
import { createMe } from '@/testing/factories';
import { fail, fakeServer, ok } from '@/testing/fake-server';
import { ReportDownloadButton } from './report-download-button';

const SEARCH = 'from=2026-03-01&to=2026-03-07&integrationIds=11111111-1111-4111-8111-111111111111';
const PDF = '/organizations/org_1/reports/pdf';

/** jsdom has no object URLs: the test's stand-ins, put back after each test. */
const objectUrls = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
let clicked: Array<{ href: string; download: string }>;
let blobs: Blob[];

beforeEach(() => {
  clicked = [];
  blobs = [];
  URL.createObjectURL = (blob: Blob) => {
    blobs.push(blob);
    return `blob:report-${blobs.length}`;
  };
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push({ href: this.href, download: this.download });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  URL.createObjectURL = objectUrls.create;
  URL.revokeObjectURL = objectUrls.revoke;
});

function renderButton() {
  render(
    <>
      <AppToaster />
      <ReportDownloadButton orgId="org_1" search={SEARCH} />
    </>,
  );
  return userEvent.setup();
}

describe('Download report (PDF)', () => {
  it('downloads the PDF of the range and filters under the name the server gives', async () => {
    const server = fakeServer({
      'GET /auth/me': ok(createMe()),
      [`GET ${PDF}`]: () =>
        new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
          status: 200,
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': 'attachment; filename="acme-report-2026-03-01-2026-03-07.pdf"',
          },
        }),
    });
    const user = renderButton();
    await user.click(screen.getByRole('button', { name: 'Download report (PDF)' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]).toEqual({
      href: 'blob:report-1',
      download: 'acme-report-2026-03-01-2026-03-07.pdf',
    });
    expect(blobs[0]!.size).toBe(4);
    const request = server.requests.find((r) => r.path === PDF)!;
    expect(request.query.toString()).toBe(SEARCH);
    expect(request.init?.credentials).toBe('include');
    // The session is checked (and refreshed if needed) before the download.
    expect(server.requests.findIndex((r) => r.path === '/auth/me')).toBeLessThan(
      server.requests.indexOf(request),
    );
    expect(await screen.findByText('Report downloaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download report (PDF)' })).toBeEnabled();
  });

  it('says why in a toast, and saves no file, when the server refuses', async () => {
    fakeServer({
      'GET /auth/me': ok(createMe()),
      [`GET ${PDF}`]: fail(
        404,
        'NOT_FOUND',
        'One of the chosen accounts does not exist in this organization.',
      ),
    });
    const user = renderButton();
    await user.click(screen.getByRole('button', { name: 'Download report (PDF)' }));
    expect(
      await screen.findByText('One of the chosen accounts does not exist in this organization.'),
    ).toBeInTheDocument();
    expect(clicked).toEqual([]);
  });
});
