import type Stripe from 'stripe';

/** The payment side of subscribing. `none` activates at once; `stripe` sends the buyer to Checkout. */
export interface BillingProvider {
  readonly kind: 'none' | 'stripe';
  /** A Checkout URL, or null when the plan is active at once (no payment). */
  startCheckout(input: CheckoutInput): Promise<string | null>;
  /** Stops renewal at the end of the paid period. */
  cancelAtPeriodEnd(stripeSubscriptionId: string | null): Promise<void>;
  portalUrl(customerId: string, returnUrl: string): Promise<string>;
}

export interface CheckoutInput {
  organizationId: string;
  planId: string;
  stripePriceId: string | null;
  planName: string;
  customerEmail: string;
  customerId: string | null;
  successUrl: string;
  cancelUrl: string;
}

export const noBilling: BillingProvider = {
  kind: 'none',
  async startCheckout() {
    return null;
  },
  async cancelAtPeriodEnd() {},
  async portalUrl() {
    throw new Error('There is no billing portal without a payment provider.');
  },
};

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another base URL for the Stripe API (the local emulator in tests and sandbox runs). */
  apiUrl?: string;
}

/** The Stripe SDK loads only here, when billing is configured (it costs start time). */
export async function createStripeClient(settings: StripeSettings): Promise<Stripe> {
  const base = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const { default: StripeSdk } = await import('stripe');
  return new StripeSdk(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
}

export class StripeBilling implements BillingProvider {
  readonly kind = 'stripe' as const;
  constructor(
    readonly stripe: Stripe,
    private readonly webhookSecret: string,
  ) {}

  async startCheckout(input: CheckoutInput): Promise<string> {
    if (!input.stripePriceId) throw new MissingPriceError(input.planName);
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: input.stripePriceId, quantity: 1 }],
      ...(input.customerId
        ? { customer: input.customerId }
        : { customer_email: input.customerEmail }),
      client_reference_id: input.organizationId,
      metadata: { organizationId: input.organizationId, planId: input.planId },
      subscription_data: {
        metadata: { organizationId: input.organizationId, planId: input.planId },
      },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    if (!session.url) throw new Error('Stripe returned a Checkout session without a URL.');
    return session.url;
  }

  async cancelAtPeriodEnd(stripeSubscriptionId: string | null) {
    if (!stripeSubscriptionId) return;
    await this.stripe.subscriptions.update(stripeSubscriptionId, { cancel_at_period_end: true });
  }

  async portalUrl(customerId: string, returnUrl: string) {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: returnUrl,
    });
    return session.url;
  }

  /** Verifies the signature over the exact bytes received; throws when it does not match. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature) throw new Error('Missing Stripe-Signature header.');
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
  }
}

export class MissingPriceError extends Error {
  constructor(readonly planName: string) {
    super(`The ${planName} plan has no Stripe price yet.`);
  }
}
