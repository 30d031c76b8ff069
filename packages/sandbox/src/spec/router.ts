import type { OperationModel } from '@partner-apis/spec-model';

/** An operation served under a base path, e.g. `/approvals/v1` + `/approvals`. */
export interface Route<Service = string> {
  /** `service.operationId`, e.g. `approvals.getApprovals`: how faults and stats name the route. */
  readonly id: string;
  readonly service: Service;
  readonly operation: OperationModel;
  /** Base path + spec path template. */
  readonly fullPath: string;
}

/** What the router found for a method and path. */
export type RouteMatch<Service> =
  | { kind: 'found'; route: Route<Service>; pathParams: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'not-found' }
  | { kind: 'bad-path' };

interface Template<Service> {
  /** A literal segment, or `null` where a path parameter goes. */
  readonly segments: readonly (string | null)[];
  readonly names: readonly string[];
  readonly routes: Route<Service>[];
}

/**
 * Matches method and path to a spec operation. Static paths are one map lookup; templated paths
 * are compared segment by segment.
 */
export class Router<Service> {
  readonly #static = new Map<string, Route<Service>[]>();
  readonly #templates: Template<Service>[] = [];

  constructor(routes: readonly Route<Service>[]) {
    for (const route of routes) {
      if (!route.fullPath.includes('{')) {
        const list = this.#static.get(route.fullPath) ?? [];
        list.push(route);
        this.#static.set(route.fullPath, list);
        continue;
      }
      const parts = route.fullPath.split('/');
      const segments = parts.map((part) => (/^\{[^}]+\}$/.test(part) ? null : part));
      const names = parts.filter((part) => part.startsWith('{')).map((part) => part.slice(1, -1));
      const same = this.#templates.find((t) => t.segments.join('/') === segments.join('/'));
      if (same) same.routes.push(route);
      else this.#templates.push({ segments, names, routes: [route] });
    }
  }

  match(method: string, pathname: string): RouteMatch<Service> {
    const candidates = this.#static.get(pathname);
    if (candidates) return pick(candidates, method, {});
    const parts = pathname.split('/');
    for (const template of this.#templates) {
      if (template.segments.length !== parts.length) continue;
      const values: string[] = [];
      let matches = true;
      for (let i = 0; i < parts.length; i++) {
        const segment = template.segments[i];
        const part = parts[i] ?? '';
        if (segment === null) {
          if (part === '') {
            matches = false;
            break;
          }
          values.push(part);
        } else if (segment !== part) {
          matches = false;
          break;
        }
      }
      if (!matches) continue;
      const pathParams: Record<string, string> = {};
      try {
        template.names.forEach((name, i) => (pathParams[name] = decodeURIComponent(values[i]!)));
      } catch {
        return { kind: 'bad-path' };
      }
      return pick(template.routes, method, pathParams);
    }
    return { kind: 'not-found' };
  }

  /** Every route, for listings. */
  routes(): Route<Service>[] {
    return [...[...this.#static.values()].flat(), ...this.#templates.flatMap((t) => t.routes)];
  }
}

function pick<Service>(
  routes: readonly Route<Service>[],
  method: string,
  pathParams: Record<string, string>,
): RouteMatch<Service> {
  const route = routes.find((r) => r.operation.method === method);
  if (route) return { kind: 'found', route, pathParams };
  return { kind: 'wrong-method', allowed: routes.map((r) => r.operation.method) };
}
