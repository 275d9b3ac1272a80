import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply } from 'fastify';
import qs from 'qs';
import Stripe from 'stripe';

/**
 * A local emulator of the few Stripe endpoints Herald calls (Checkout Sessions, Subscriptions,
 * Billing Portal), with Stripe's paths, form-encoded requests and object shapes, plus signed
 * webhooks. It lets the real Stripe SDK code run end to end without the internet.
 */
export interface StripeEmulatorOptions {
  webhookSecret: string;
  /** Delivers a signed webhook (POST to Herald's endpoint, or an in-process inject in tests). */
  deliver(payload: string, signatureHeader: string): Promise<{ status: number }>;
}

type Obj = Record<string, unknown>;
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 24 * 60 * 60;

export async function startStripeEmulator(opts: StripeEmulatorOptions) {
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const delivered: Array<{ payload: string; header: string; status: number }> = [];
  const signer = new Stripe('sk_test_emulator');
  const app = Fastify({ logger: false });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => {
      done(null, qs.parse(body as string));
    },
  );

  const fail = (reply: FastifyReply, status: number, message: string, param?: string) =>
    reply
      .status(status)
      .send({ error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } });

  async function emit(type: string, object: Obj) {
    const event = {
      id: id('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({
      payload,
      secret: opts.webhookSecret,
    });
    const { status } = await opts.deliver(payload, header);
    delivered.push({ payload, header, status });
    return event;
  }

  app.post('/v1/checkout/sessions', async (request, reply) => {
    const body = request.body as Obj;
    const items = body.line_items as Array<{ price?: string }> | undefined;
    if (body.mode !== 'subscription')
      return fail(reply, 400, 'Only subscription mode is emulated.', 'mode');
    if (!items?.[0]?.price)
      return fail(reply, 400, 'Missing required param: line_items[0][price].', 'line_items');
    const session: Obj = {
      id: id('cs_test'),
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata ?? {},
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      subscription: null,
      price: items[0].price,
      subscription_metadata: (body.subscription_data as Obj | undefined)?.metadata ?? {},
      created: now(),
    };
    session.url = `${baseUrl()}/checkout/${String(session.id)}`;
    sessions.set(session.id as string, session);
    return session;
  });

  app.get<{ Params: { id: string } }>('/v1/checkout/sessions/:id', async (request, reply) => {
    return (
      sessions.get(request.params.id) ??
      fail(reply, 404, `No such checkout.session: '${request.params.id}'`)
    );
  });

  app.get<{ Params: { id: string } }>('/v1/subscriptions/:id', async (request, reply) => {
    return (
      subscriptions.get(request.params.id) ??
      fail(reply, 404, `No such subscription: '${request.params.id}'`)
    );
  });

  app.post<{ Params: { id: string } }>('/v1/subscriptions/:id', async (request, reply) => {
    const sub = subscriptions.get(request.params.id);
    if (!sub) return fail(reply, 404, `No such subscription: '${request.params.id}'`);
    const body = request.body as Obj;
    if (body.cancel_at_period_end !== undefined)
      sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
    await emit('customer.subscription.updated', sub);
    return sub;
  });

  app.post('/v1/billing_portal/sessions', async (request, reply) => {
    const body = request.body as Obj;
    if (!body.customer) return fail(reply, 400, 'Missing required param: customer.', 'customer');
    return {
      id: id('bps'),
      object: 'billing_portal.session',
      customer: body.customer,
      return_url: body.return_url,
      url: `${baseUrl()}/portal/${String(body.customer)}`,
    };
  });

  // The hosted pages a buyer would see.
  app.get<{ Params: { id: string } }>('/checkout/:id', async (request, reply) => {
    const session = sessions.get(request.params.id);
    if (!session)
      return reply.status(404).type('text/html').send('<p>Unknown checkout session.</p>');
    return reply
      .type('text/html')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sandbox checkout</title></head><body><main><h1>Sandbox checkout</h1><p>Price ${String(session.price)} — no money moves in the sandbox.</p><form method="post" action="/checkout/${String(session.id)}/pay"><button type="submit">Pay</button></form><p><a href="${String(session.cancel_url)}">Cancel</a></p></main></body></html>`,
      );
  });
  app.post<{ Params: { id: string } }>('/checkout/:id/pay', async (request, reply) => {
    const session = await completeCheckout(request.params.id);
    return reply.redirect(String(session.success_url), 303);
  });

  /** What Stripe does when the buyer pays: customer, subscription, then the webhooks. */
  async function completeCheckout(sessionId: string) {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`No such checkout session ${sessionId}`);
    const customer = (session.customer as string | null) ?? id('cus');
    const start = now();
    const sub: Obj = {
      id: id('sub'),
      object: 'subscription',
      customer,
      status: 'active',
      cancel_at_period_end: false,
      canceled_at: null,
      trial_start: null,
      trial_end: null,
      metadata: session.subscription_metadata,
      items: {
        object: 'list',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            price: { id: session.price, object: 'price' },
            quantity: 1,
            current_period_start: start,
            current_period_end: start + MONTH,
          },
        ],
      },
    };
    subscriptions.set(sub.id as string, sub);
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer,
      subscription: sub.id,
    });
    await emit('checkout.session.completed', session);
    await emit('invoice.paid', {
      id: id('in'),
      object: 'invoice',
      customer,
      subscription: sub.id,
      status: 'paid',
    });
    return session;
  }

  async function failPayment(customer: string) {
    return emit('invoice.payment_failed', {
      id: id('in'),
      object: 'invoice',
      customer,
      status: 'open',
    });
  }

  async function payInvoice(customer: string) {
    return emit('invoice.paid', { id: id('in'), object: 'invoice', customer, status: 'paid' });
  }

  async function endSubscription(subscriptionId: string) {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`No such subscription ${subscriptionId}`);
    Object.assign(sub, { status: 'canceled', canceled_at: now() });
    return emit('customer.subscription.deleted', sub);
  }

  /** A change of plan in the Billing Portal: the subscription's item takes another price. */
  async function changePrice(subscriptionId: string, price: string) {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`No such subscription ${subscriptionId}`);
    const items = sub.items as { data: Array<Obj> };
    items.data[0]!.price = { id: price, object: 'price' };
    return emit('customer.subscription.updated', sub);
  }

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const baseUrl = () => `http://127.0.0.1:${address.port}`;

  return {
    url: baseUrl(),
    sessions,
    subscriptions,
    delivered,
    completeCheckout,
    failPayment,
    payInvoice,
    endSubscription,
    changePrice,
    /** Sends a payload signed with another secret, as a forger would. */
    async deliverForged(payload: string) {
      const header = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_forged' });
      return opts.deliver(payload, header);
    },
    close: () => app.close(),
  };
}

export type StripeEmulator = Awaited<ReturnType<typeof startStripeEmulator>>;
