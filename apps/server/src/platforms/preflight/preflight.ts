import type { NetworkSetup, NetworkSetupFinding } from '@herald/contract';
import type { Config } from '../../config.js';
import { NETWORK_MODULES } from '../catalog.js';
import type { NetworkModule } from '../network-module.js';
import { appCredentials, appOf, isUnaudited } from '../network-env.js';
import { connectCallbackUrl, networkUrls, SANDBOX_CLIENT_ID } from '../runtime.js';
import { apiVersionFinding } from './api-version-finding.js';
import type { NetworkSetupFacts } from '../setup-facts.js';
import { mediaUrlFinding } from './media-url-finding.js';

/**
 * The static preflight (docs/networks.md#preflight): for every network of the catalog, what the
 * operator must register at the network and what is wrong with the configuration, as findings of
 * one sentence each. No network traffic: the scopes and the redirect URI are read from the
 * authorize URL each adapter builds, i.e. exactly what Herald sends. `herald doctor` and
 * `GET /admin/network-setup` both print this.
 */
export interface PreflightOptions {
  /** Whether users are offered each network, by platform name (the back-office switch). */
  active?: Map<string, boolean> | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  modules?: readonly NetworkModule<any>[];
  /** The day the API versions are checked against (now unless a test says otherwise). */
  now?: Date;
}

type PreflightConfig = Pick<
  Config,
  'apiPublicUrl' | 'isProduction' | 'networkEnv' | 'apiVersions'
> &
  Partial<Pick<Config, 'inbox'>>;

const noTraffic = () => Promise.reject(new Error('The static preflight makes no requests.'));

/** The redirect URI and scopes an adapter puts in its authorize URL. */
function authorizeRequest(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  module: NetworkModule<any>,
  urls: unknown,
  clientId: string,
  redirectUri: string,
  kind: string | undefined,
) {
  const adapter = module.createAdapter({
    clientId,
    clientSecret: '',
    urls,
    http: noTraffic,
    ...(kind ? { kind } : {}),
  });
  const url = new URL(
    adapter.authorizeUrl({ redirectUri, state: 'preflight', codeChallenge: 'preflight' }),
  );
  const scope = url.searchParams.get('scope') ?? '';
  return {
    redirectUri: url.searchParams.get('redirect_uri') ?? redirectUri,
    scopes: scope.split(/[ ,]+/).filter(Boolean),
  };
}

const finding = (
  level: NetworkSetupFinding['level'],
  topic: NetworkSetupFinding['topic'],
  message: string,
): NetworkSetupFinding => ({ level, topic, message });

const listOf = (items: string[]) =>
  items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

function credentialFindings(
  name: string,
  facts: NetworkSetupFacts,
  set: { clientId: boolean; clientSecret: boolean },
  mode: NetworkSetup['mode'],
  active: boolean | null,
): NetworkSetupFinding[] {
  if (facts.perServerApps)
    return [
      finding(
        'ok',
        'credentials',
        mode === 'sandbox'
          ? `${facts.perServerApps} Outside production ${name} runs against its local sandbox's servers${facts.realServersEnv ? ` unless ${facts.realServersEnv}=true` : ''}.`
          : facts.perServerApps,
      ),
    ];
  const { clientId, clientSecret } = facts.env;
  const both = `${clientId} and ${clientSecret}`;
  if (mode === 'configured')
    return [
      finding('ok', 'credentials', `${both} are set: Herald connects real ${name} accounts.`),
    ];
  const fallback =
    mode === 'sandbox' ? `${name} runs against its local sandbox` : `${name} is unavailable`;
  if (set.clientId !== set.clientSecret) {
    const missing = set.clientId ? clientSecret : clientId;
    const present = set.clientId ? clientId : clientSecret;
    return [
      finding(
        'problem',
        'credentials',
        `Set ${missing} too: with only ${present} set, Herald ignores both and ${fallback}.`,
      ),
    ];
  }
  if (mode === 'sandbox')
    return [
      finding(
        'ok',
        'credentials',
        `${name} runs against its local sandbox: set ${both} to connect real ${name} accounts.`,
      ),
    ];
  if (active)
    return [
      finding(
        'problem',
        'credentials',
        `Set ${both}, or switch ${name} off under Platforms: users are offered ${name} but cannot connect it.`,
      ),
    ];
  return [
    finding(
      active === false ? 'ok' : 'warning',
      'credentials',
      `${name} is unavailable: set ${both} to offer it.`,
    ),
  ];
}

function redirectFindings(
  name: string,
  facts: NetworkSetupFacts,
  redirectUri: string,
): NetworkSetupFinding[] {
  const url = new URL(redirectUri);
  const findings = [
    finding(
      'ok',
      'redirect',
      `Register ${redirectUri} as a redirect URI in ${facts.console}, exactly as written.`,
    ),
  ];
  if (url.protocol === 'https:' || !facts.httpsRedirect) return findings;
  const isLocal = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  if (facts.httpsRedirect === 'localhost-only' && isLocal) {
    findings.push(
      finding(
        'warning',
        'redirect',
        `${name} accepts an http redirect URI on localhost only while its app is in development mode: set API_PUBLIC_URL to an https address before real users connect.`,
      ),
    );
  } else {
    findings.push(
      finding(
        'problem',
        'redirect',
        `Set API_PUBLIC_URL to this server's https address: ${name} refuses the redirect URI ${redirectUri} because it is not https.`,
      ),
    );
  }
  return findings;
}

/** Products the requested scopes need, scopes no product grants, and the app-kind conflict. */
function scopeFindings(
  name: string,
  facts: NetworkSetupFacts,
  scopes: string[],
): NetworkSetupFinding[] {
  if (facts.products.length === 0) return [];
  const findings: NetworkSetupFinding[] = [];
  const needed = facts.products.filter((p) => p.scopes.some((s) => scopes.includes(s)));
  for (const product of needed) {
    const asked = product.scopes.filter((s) => scopes.includes(s));
    findings.push(
      finding(
        'ok',
        'scopes',
        `Add ${product.name} to the ${name} app (its products): Herald asks for ${listOf(asked)}.`,
      ),
    );
  }
  const granted = new Set(facts.products.flatMap((p) => p.scopes));
  const stray = scopes.filter((s) => !granted.has(s));
  if (stray.length > 0) {
    findings.push(
      finding(
        'warning',
        'scopes',
        `Check that the ${name} app may ask for ${listOf(stray)}: none of the products Herald knows for ${name} grants ${stray.length === 1 ? 'it' : 'them'}, and the sign-in fails when a scope is not granted.`,
      ),
    );
  }
  return [
    ...findings,
    ...appKindFindings(
      name,
      facts,
      needed.map((p) => p),
    ),
  ];
}

/**
 * A product that must be alone on its app (LinkedIn's Community Management API) cannot share one
 * sign-in with other products: say so, or say which kind of app this is.
 */
function appKindFindings(
  name: string,
  facts: NetworkSetupFacts,
  needed: NetworkSetupFacts['products'][number][],
): NetworkSetupFinding[] {
  if (!facts.appKind && !facts.products.some((p) => p.exclusive)) return [];
  const exclusive = needed.filter((p) => p.exclusive);
  const others = needed.filter((p) => !p.exclusive);
  if (exclusive.length > 0 && others.length > 0) {
    return [
      finding(
        'problem',
        'app-kind',
        `Use separate ${name} apps: ${name} allows ${listOf(exclusive.map((p) => p.name))} only alone on an app, yet Herald asks the app of ${facts.env.clientId} for its scopes together with those of ${listOf(others.map((p) => p.name))}, so ${name} refuses the sign-in.`,
      ),
    ];
  }
  const kind = exclusive.length > 0 ? 'organization Pages' : 'personal profiles';
  return [
    finding(
      'ok',
      'app-kind',
      `The ${name} app of ${facts.env.clientId} connects ${kind}: it needs ${listOf(needed.map((p) => p.name))} and no other product.`,
    ),
  ];
}

function auditFindings(
  name: string,
  facts: NetworkSetupFacts,
  unaudited: boolean,
): NetworkSetupFinding[] {
  const audit = facts.audit;
  if (!audit) return [];
  return unaudited
    ? [
        finding(
          'warning',
          'audit',
          `${name} runs in unaudited mode (${audit.env}=true): ${audit.restrictions}; unset ${audit.env} once ${name} has audited the app.`,
        ),
      ]
    : [
        finding(
          'ok',
          'audit',
          `Herald treats the ${name} app as audited: until ${name} has audited it, set ${audit.env}=true, or ${name} refuses ${audit.refusedOtherwise}.`,
        ),
      ];
}

function domainFindings(name: string, apiPublicUrl: string): NetworkSetupFinding[] {
  let host: string;
  try {
    host = new URL(apiPublicUrl).hostname;
  } catch {
    host = apiPublicUrl;
  }
  return [
    finding(
      'warning',
      'domain',
      `Verify ${host} (URL prefix ${apiPublicUrl}/media/) in the ${name} developer portal: ${name} pulls photo posts only from verified domains and refuses the others (url_ownership_unverified).`,
    ),
  ];
}

/**
 * Whether a network's own sign-in page is offered beside app passwords (Bluesky's OAuth: Herald is
 * known there by its public https address), and which key Herald signs with.
 */
function addressedClientFinding(
  name: string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  module: NetworkModule<any>,
  config: PreflightConfig,
  keyEnv: string,
  mode: NetworkSetup['mode'],
): NetworkSetupFinding {
  const configuredKey = config.networkEnv.oauthKey(keyEnv);
  const documents = module
    .createAdapter({
      clientId: '',
      clientSecret: '',
      urls: networkUrls(module, config, mode === 'sandbox'),
      http: noTraffic,
      apiPublicUrl: config.apiPublicUrl,
      // Only the client id is read here: any seed makes it.
      clientKeySeed: 'preflight',
      ...(configuredKey ? { oauthKey: configuredKey } : {}),
    })
    .oauthDocuments?.();
  const clientId = (documents?.clientMetadata as { client_id?: string } | undefined)?.client_id;
  if (!clientId)
    return finding(
      'ok',
      'credentials',
      `${name} accounts connect with app passwords only: signing in on ${name} (OAuth) needs a public https API_PUBLIC_URL, and ${config.apiPublicUrl} is not one.${configuredKey ? ` ${keyEnv} is set but unused until then.` : ''}`,
    );
  return finding(
    'ok',
    'credentials',
    `${name} accounts may sign in on ${name} (OAuth) beside app passwords: Herald's client id is ${clientId}, signed with ${configuredKey ? `the key in ${keyEnv}` : `a key Herald makes from its own secret (set ${keyEnv} to choose one)`}.`,
  );
}

/**
 * The setup of every network in the catalog, in catalog order; a network with one developer app
 * per connect kind (LinkedIn) has one entry per kind, each with its own credentials and scopes.
 */
export function checkNetworkSetup(
  config: PreflightConfig,
  options: PreflightOptions = {},
): NetworkSetup[] {
  const modules = options.modules ?? NETWORK_MODULES;
  return modules.flatMap((module) => {
    const kinds = module.connectKinds?.length
      ? module.connectKinds.map((k) => ({
          kind: k.kind,
          name: k.label,
          facts: appOf(module, k),
        }))
      : [{ kind: undefined, name: module.name, facts: module.setup }];
    return kinds.map((entry) => checkOneSetup(config, options, module, entry));
  });
}

function checkOneSetup(
  config: PreflightConfig,
  options: PreflightOptions,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  module: NetworkModule<any>,
  entry: { kind: string | undefined; name: string; facts: NetworkSetupFacts },
): NetworkSetup {
  const { kind, name, facts } = entry;
  const credentials = appCredentials(config, facts);
  const set = config.networkEnv.credentialsSet(facts.env);
  const mode: NetworkSetup['mode'] = credentials
    ? 'configured'
    : config.isProduction
      ? 'unavailable'
      : 'sandbox';
  const active = options.active?.get(module.name) ?? null;
  const { redirectUri, scopes } = authorizeRequest(
    module,
    networkUrls(module, config, mode === 'sandbox'),
    credentials?.clientId ?? SANDBOX_CLIENT_ID,
    connectCallbackUrl(config.apiPublicUrl, module.slug),
    kind,
  );
  const findings = credentialFindings(name, facts, set, mode, active);
  if (facts.addressedOAuthClient)
    findings.push(
      addressedClientFinding(name, module, config, facts.addressedOAuthClient.keyEnv, mode),
    );
  if (mode === 'configured' && !facts.perServerApps) {
    findings.push(...redirectFindings(name, facts, redirectUri));
    findings.push(...scopeFindings(name, facts, scopes));
    if (module.pullsMediaByUrl)
      findings.push(mediaUrlFinding(name, config.apiPublicUrl, facts.pulledMedia));
    findings.push(...auditFindings(name, facts, isUnaudited(config, facts)));
    for (const note of facts.tokenNotes ?? []) findings.push(finding('warning', 'tokens', note));
    if (facts.inboxDelivery) findings.push(finding('ok', 'inbox', facts.inboxDelivery(config)));
    if (facts.verifiesMediaDomain) findings.push(...domainFindings(name, config.apiPublicUrl));
    if (facts.apiVersion)
      findings.push(
        apiVersionFinding(
          facts.apiVersion,
          config.apiVersions[facts.apiVersion],
          options.now ?? new Date(),
        ),
      );
  }
  return {
    slug: module.slug,
    ...(kind ? { kind } : {}),
    name,
    mode,
    active,
    redirectUri,
    scopes,
    findings,
  };
}
