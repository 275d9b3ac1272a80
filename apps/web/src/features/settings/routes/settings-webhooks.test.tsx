import type { WebhookDelivery, WebhookEndpoint } from '@herald/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMe } from '@/testing/factories';
import { fail, ok } from '@/testing/fake-server';
import { integrationRoutes } from '@/testing/platform-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const BASE = '/organizations/org_1/webhooks';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const endpoint: WebhookEndpoint = {
  id: 'ep_1',
  url: 'https://orders.example.com/herald',
  description: 'Order system',
  events: ['post.published'],
  enabled: true,
  disabledReason: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-12-01T10:00:00.000Z',
};

const testDelivery: WebhookDelivery = {
  id: 'd_1',
  messageId: 'msg_0a1b2c',
  type: 'webhook.test',
  status: 'SUCCEEDED',
  attemptCount: 1,
  nextAttemptAt: null,
  createdAt: '2026-12-01T10:05:00.000Z',
  attempts: [
    {
      id: 'a_1',
      attemptedAt: '2026-12-01T10:05:00.000Z',
      statusCode: 200,
      durationMs: 42,
      responseExcerpt: 'thanks',
      error: null,
      succeeded: true,
    },
  ],
};

describe('/settings outgoing webhooks', () => {
  it('adds an endpoint, shows its secret once, and sends a test event into the log', async () => {
    let endpoints: WebhookEndpoint[] = [];
    let deliveries: WebhookDelivery[] = [];
    const server = mockServer({
      me: createMe(),
      routes: {
        ...integrationRoutes(),
        [`GET ${BASE}`]: () => ok({ endpoints }),
        [`POST ${BASE}`]: ({ body }) => {
          const { url } = body as { url: string };
          if (url.includes('10.0.0.5'))
            return fail(
              400,
              'VALIDATION_FAILED',
              'The webhook URL points at a private or local address (10.0.0.5), which Herald does not fetch from.',
            );
          endpoints = [endpoint];
          return { status: 201, body: { status: 'success', data: { endpoint, secret: SECRET } } };
        },
        [`GET ${BASE}/ep_1/deliveries`]: () => ok({ deliveries }),
        [`POST ${BASE}/ep_1/test`]: () => {
          deliveries = [testDelivery];
          return ok({ delivery: testDelivery });
        },
      },
    });
    const { user } = renderApp('/settings');
    // The settings page is a lazy route: its first render may take a moment on a busy machine.
    const card = await screen.findByRole(
      'region',
      { name: 'Outgoing webhooks' },
      { timeout: 5000 },
    );
    expect(await within(card).findByText('No endpoints yet.')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Add Endpoint' }));

    // A private address is refused with the server's sentence.
    await user.type(
      within(card).getByRole('textbox', { name: 'Endpoint URL' }),
      'https://10.0.0.5/x',
    );
    await user.click(within(card).getByRole('button', { name: 'Add Endpoint' }));
    expect(await within(card).findByText(/private or local address/)).toBeInTheDocument();

    await user.clear(within(card).getByRole('textbox', { name: 'Endpoint URL' }));
    await user.type(
      within(card).getByRole('textbox', { name: 'Endpoint URL' }),
      'https://orders.example.com/herald',
    );
    await user.click(within(card).getByRole('checkbox', { name: 'post.failed' }));
    await user.click(within(card).getByRole('button', { name: 'Add Endpoint' }));
    expect(await within(card).findByText(SECRET)).toBeInTheDocument();
    const sent = server.requests.filter((r) => r.method === 'POST' && r.path === BASE).at(-1);
    expect(sent?.body).toEqual({
      url: 'https://orders.example.com/herald',
      events: ['post.published'],
    });
    await user.click(within(card).getByRole('button', { name: 'I have saved it' }));
    expect(within(card).queryByText(SECRET)).not.toBeInTheDocument();

    const list = await within(card).findByRole('list', { name: 'Webhook endpoints' });
    expect(within(list).getByText('Order system')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Deliveries' }));
    expect(await within(card).findByText(/Nothing sent yet/)).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Send test event' }));
    const log = await within(card).findByRole('list', { name: 'Deliveries' });
    expect(within(log).getByText('webhook.test')).toBeInTheDocument();
    expect(within(log).getByText('Delivered')).toBeInTheDocument();
    expect(within(log).getByText('1 attempt · last: HTTP 200 in 42 ms')).toBeInTheDocument();
  });
});
