import type { FastifyInstance, RouteOptions } from 'fastify';

/** The methods that change something (and so face the origin check, write limits, …). */
export const STATE_CHANGING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The methods a route answers, in capitals. */
export const methodsOf = (route: RouteOptions) =>
  [route.method].flat().map((method) => method.toUpperCase());

/** Whether a route answers at least one state-changing method. */
export const changesState = (route: RouteOptions) =>
  methodsOf(route).some((method) => STATE_CHANGING.has(method));

type RouteHookName = 'onRequest' | 'preValidation' | 'preHandler' | 'onSend' | 'onResponse';

const recorded = new WeakMap<FastifyInstance, RouteOptions[]>();

/**
 * Keeps every route registered on `app` from now on (call it as the instance is made), so that
 * `hookRoutes` can make sure at ready that no route it should have hooked was registered before
 * it was called: such a route would have run without a protection the others have.
 */
export function recordRoutes(app: FastifyInstance) {
  const routes: RouteOptions[] = [];
  recorded.set(app, routes);
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
}

/**
 * Adds `handler` as a hook of their own to the routes `applies` picks among those registered
 * from now on, instead of a hook every request runs. Fastify runs a route's own hooks after the
 * instance's hooks of the same kind, in the order they were added; a request no route matched
 * (a 404) runs none of them. On an instance whose routes are recorded (`recordRoutes`), it
 * refuses to get ready if a route it picks was registered before it was called.
 *
 * For work that only some routes ever do (only writes are checked for their origin, only the
 * upload route counts bytes): a health check, or any read, used to run a dozen hooks that each
 * looked at the request and passed, a measurable part of its time. The handler still
 * decides for itself on a route that answers several methods.
 */
export function hookRoutes<Name extends RouteHookName>(
  app: FastifyInstance,
  name: Name,
  applies: (route: RouteOptions) => boolean,
  handler: NonNullable<RouteOptions[Name]> extends infer H
    ? H extends unknown[]
      ? H[number]
      : H
    : never,
) {
  app.addHook('onRoute', (route) => {
    if (!applies(route)) return;
    const own = route[name] as unknown;
    const hooks = own === undefined ? [] : [own].flat();
    (route as Record<RouteHookName, unknown>)[name] = [...hooks, handler];
  });
  const routes = recorded.get(app);
  if (!routes) return;
  app.addHook('onReady', (done) => {
    const missed = routes.filter(
      (route) => applies(route) && ![route[name]].flat().includes(handler as never),
    );
    if (missed.length === 0) return done();
    const names = missed.map((route) => `${methodsOf(route).join('/')} ${route.url}`);
    done(new Error(`Registered before its ${name} hook was added: ${names.join(', ')}.`));
  });
}
