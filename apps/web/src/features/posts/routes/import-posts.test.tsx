import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

const CSV = 'text,accounts,time\nHello,x,2031-01-01 09:00\nBad,x,soon\n';

const dryRunRows = [
  {
    row: 2,
    ok: true,
    messages: [],
    text: 'Hello',
    accounts: ['Acme (@acme)'],
    scheduledAt: '2031-01-01T09:00:00.000Z',
    mediaCount: 0,
  },
  {
    row: 3,
    ok: false,
    messages: ['time: "soon" is not a date and time.'],
    text: 'Bad',
    accounts: ['Acme (@acme)'],
    scheduledAt: null,
    mediaCount: 0,
  },
];

async function renderImport(routes = {}, session = createMe()) {
  const server = mockServer({
    me: session,
    routes: {
      'POST /organizations/org_1/posts/import/dry-run': ok({
        rows: dryRunRows,
        valid: 1,
        invalid: 1,
      }),
      'POST /organizations/org_1/posts/import': ok({
        imported: 1,
        postIds: ['p1'],
        refused: [{ row: 3, message: 'Row 3: time: "soon" is not a date and time.' }],
      }),
      ...routes,
    },
  });
  const app = renderApp('/content/import');
  await screen.findByText(
    /^(Import posts from CSV|You need the Create Posts permission.*)$/,
    {},
    { timeout: 10_000 },
  );
  return { ...app, server };
}

const upload = async (user: ReturnType<typeof renderApp>['user']) => {
  const file = new File([CSV], 'posts.csv', { type: 'text/csv' });
  await user.upload(screen.getByLabelText('CSV file'), file);
};

describe('/content/import', () => {
  it('checks the file first (row numbers and messages), then imports the valid rows', async () => {
    const { user, server } = await renderImport();
    await upload(user);
    await user.click(await screen.findByRole('button', { name: 'Check file' }));
    const result = await screen.findByRole('region', { name: 'Check of posts.csv' });
    expect(within(result).getByText('1 row ready, 1 refused.')).toBeInTheDocument();
    expect(within(result).getByText('Row 3')).toBeInTheDocument();
    expect(within(result).getByText('time: "soon" is not a date and time.')).toBeInTheDocument();
    // Times are written in the zone that applies, named: never the server's UTC text.
    expect(
      screen.getByText('Times in Europe/London (your time zone; the organization has none set)'),
    ).toBeInTheDocument();
    expect(within(result).getByText(/Jan 1, 2031 9:00 AM \(Europe\/London\)/)).toBeInTheDocument();
    expect(within(result).queryByText(/2031-01-01T09:00/)).toBeNull();
    const dry = server.requests.find((r) => r.path.endsWith('/dry-run'));
    expect(dry?.body).toEqual({ csv: CSV, mode: 'schedule' });
    expect(server.count('POST /organizations/org_1/posts/import')).toBe(0);

    await user.click(within(result).getByRole('button', { name: 'Import 1 row' }));
    expect(await within(result).findByText('Imported 1 post.')).toBeInTheDocument();
    expect(
      within(result).getByText('Row 3: time: "soon" is not a date and time.'),
    ).toBeInTheDocument();
  });

  it('imports as drafts when chosen, and shows a refusal of the whole file', async () => {
    const { user, server } = await renderImport({
      'POST /organizations/org_1/posts/import/dry-run': fail(
        400,
        'VALIDATION_FAILED',
        'The column "acounts" (column 2) is not one Herald imports.',
      ),
    });
    await upload(user);
    await user.click(screen.getByRole('radio', { name: 'As drafts' }));
    await user.click(await screen.findByRole('button', { name: 'Check file' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('"acounts" (column 2)');
    expect(server.requests.find((r) => r.path.endsWith('/dry-run'))?.body).toMatchObject({
      mode: 'draft',
    });
  });

  it('tells a member without post:create that importing needs it', async () => {
    await renderImport(
      {},
      createMe({ role: { id: 'r', name: 'CustomerSupport' }, permissions: ['dm:view'] }),
    );
    expect(
      screen.getByText('You need the Create Posts permission to import posts.'),
    ).toBeInTheDocument();
  });
});
