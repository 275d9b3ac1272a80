import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { createOrganizationFromOnboarding, seriousViolations, signInAs } from './helpers';
import { webhookReceiverPort } from './playwright.config';

/** What the loopback receiver was sent, raw. */
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
let receiver: Server;

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(webhookReceiverPort, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

test.describe('outgoing webhooks', () => {
  test('an admin adds an endpoint in Settings, sends a test event and sees it in the delivery log', async ({
    page,
  }) => {
    await signInAs(page, 'webhook.builder@example.com', 'Wren Hooks');
    await createOrganizationFromOnboarding(page, 'Hooked Bakery');
    await page.getByRole('link', { name: 'Settings', exact: true }).click();

    const card = page.getByRole('region', { name: 'Outgoing webhooks' });
    await expect(card.getByText('No endpoints yet.')).toBeVisible();
    await card.getByRole('button', { name: 'Add Endpoint' }).click();
    const url = `http://127.0.0.1:${webhookReceiverPort}/herald`;
    await card.getByLabel('Endpoint URL').fill(url);
    await card.getByLabel('Description (optional)').fill('Order system');
    await card.getByRole('checkbox', { name: 'post.created' }).check();
    await card.getByRole('button', { name: 'Add Endpoint' }).click();

    // The secret is shown this once.
    const secretNote = card.getByRole('status').filter({ hasText: 'Copy the signing secret now' });
    await expect(secretNote).toBeVisible();
    const secret = (await secretNote.getByText(/^whsec_/).textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const endpoints = card.getByRole('list', { name: 'Webhook endpoints' });
    await expect(endpoints.getByText(url)).toBeVisible();
    await expect(endpoints.getByText('Order system')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await card.getByRole('button', { name: 'I have saved it' }).click();
    await expect(card.getByText(secret)).toHaveCount(0);

    await endpoints.getByRole('button', { name: 'Deliveries' }).click();
    await expect(card.getByText('Nothing sent yet.', { exact: false })).toBeVisible();
    await card.getByRole('button', { name: 'Send test event' }).click();
    const log = card.getByRole('list', { name: 'Deliveries' });
    await expect(log.getByText('webhook.test')).toBeVisible();
    await expect(log.getByText('Delivered')).toBeVisible();
    await expect(log.getByText(/1 attempt · last: HTTP 200/)).toBeVisible();
    await expect(log.getByText('thanks')).toBeVisible();

    // The receiver got it, signed with the secret the page showed.
    expect(received).toHaveLength(1);
    const [message] = received;
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key)
      .update(
        `${message!.headers['webhook-id']}.${message!.headers['webhook-timestamp']}.${message!.body}`,
      )
      .digest('base64');
    expect(message!.headers['webhook-signature']).toBe(`v1,${expected}`);
    expect(JSON.parse(message!.body)).toMatchObject({ type: 'webhook.test' });
  });
});
