import {
  SavePlanRequestSchema,
  type Plan,
  type PlanFeatures,
  type SavePlanRequest,
} from '@herald/contract';

// The media storage limit (mediaStorageMb) is optional and not edited here: plans without it get the default.
type CountField = Exclude<keyof PlanFeatures, 'prioritySupport' | 'pooled' | 'mediaStorageMb'>;

/** The plan form as typed: numbers stay text until they are checked. */
export interface PlanFormValues {
  name: string;
  description: string;
  price: string;
  billingCycle: Plan['billingCycle'];
  stripePriceId: string;
  planType: string;
  invites: string;
  postsPerDay: string;
  organizations: string;
  connectedPlatforms: string;
  prioritySupport: boolean;
  status: Plan['status'];
  popular: boolean;
  trialEligible: boolean;
}

export type PlanFormErrors = Partial<Record<keyof PlanFormValues, string>>;

export const COUNT_FIELDS: Array<{ field: CountField; label: string }> = [
  { field: 'invites', label: 'Invites' },
  { field: 'postsPerDay', label: 'Posts per day' },
  { field: 'organizations', label: 'Organizations' },
  { field: 'connectedPlatforms', label: 'Connected platforms' },
];

/** docs/product.md#admin-form-rules defaults: empty texts, MONTHLY, ACTIVE, each count 1, no priority support. */
export const EMPTY_PLAN_FORM: PlanFormValues = {
  name: '',
  description: '',
  price: '',
  billingCycle: 'MONTHLY',
  stripePriceId: '',
  planType: '',
  invites: '1',
  postsPerDay: '1',
  organizations: '1',
  connectedPlatforms: '1',
  prioritySupport: false,
  status: 'ACTIVE',
  popular: false,
  trialEligible: true,
};

export function planToForm(plan: Plan): PlanFormValues {
  return {
    name: plan.name,
    description: plan.description,
    price: String(plan.price),
    billingCycle: plan.billingCycle,
    stripePriceId: plan.stripePriceId ?? '',
    planType: plan.providerMetadata?.planType ?? '',
    invites: String(plan.features.invites),
    postsPerDay: String(plan.features.postsPerDay),
    organizations: String(plan.features.organizations),
    connectedPlatforms: String(plan.features.connectedPlatforms),
    prioritySupport: plan.features.prioritySupport,
    status: plan.status,
    popular: plan.popular,
    trialEligible: plan.trialEligible,
  };
}

/** Text to number; blank or not a number gives NaN, which the schema refuses with its sentence. */
const toNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** Where each of the request's fields is typed in the form. */
const fieldOfPath = (path: PropertyKey[]): keyof PlanFormValues | null => {
  const [first, second] = path;
  if (first === 'features' && typeof second === 'string') return second as keyof PlanFormValues;
  if (first === 'providerMetadata') return 'planType';
  return typeof first === 'string' ? (first as keyof PlanFormValues) : null;
};

/**
 * docs/product.md#admin-form-rules plan rules, with the contract's own schema so the form and the server agree word for
 * word: name, description and price required; price a number of at least 0; counts whole
 * numbers of at least 1, sent as numbers; priority support a boolean.
 */
export function validatePlanForm(
  values: PlanFormValues,
): { errors: PlanFormErrors; request: null } | { errors: null; request: SavePlanRequest } {
  const errors: PlanFormErrors = {};
  if (values.price.trim() === '') errors.price = 'Price is required.';
  const request: SavePlanRequest = {
    name: values.name,
    description: values.description,
    price: toNumber(values.price),
    billingCycle: values.billingCycle,
    stripePriceId: values.stripePriceId.trim() || null,
    providerMetadata: values.planType.trim() ? { planType: values.planType.trim() } : null,
    features: {
      invites: toNumber(values.invites),
      postsPerDay: toNumber(values.postsPerDay),
      organizations: toNumber(values.organizations),
      connectedPlatforms: toNumber(values.connectedPlatforms),
      prioritySupport: values.prioritySupport,
    },
    status: values.status,
    popular: values.popular,
    trialEligible: values.trialEligible,
  };
  const parsed = SavePlanRequestSchema.safeParse(request);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath(issue.path);
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  if (Object.keys(errors).length > 0) return { errors, request: null };
  return {
    errors: null,
    request: {
      ...request,
      name: values.name.trim(),
      description: values.description.trim(),
    },
  };
}

/** docs/product.md#admin-plans: 'Free' for 0, otherwise $ and the amount. */
export function formatPlanPrice(price: number): string {
  return price === 0 ? 'Free' : `$${price.toFixed(2)}`;
}
