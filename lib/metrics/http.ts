import type { Counter, Histogram } from "prom-client";
import { metrics } from "./registry";

/** What the route wrapper knows of a route: its contract's surface, method and path template. */
export interface RouteLabels {
  surface: string;
  method: string;
  /** The contract's path template (`/t/{tenantId}/admin/users/{userId}`), never the request's path. */
  path: string;
}

interface Children {
  requests: ReturnType<Counter<string>["labels"]>;
  duration: ReturnType<Histogram<string>["labels"]>;
}

// Per contract and status, the labelled children are made once: a request then costs two lookups and
// two additions, with no label object to build or hash.
const KEY = Symbol.for("sesame.metricsHttpChildren");
type Holder = { [KEY]?: WeakMap<RouteLabels, Map<number, Children>> };
const holder = globalThis as Holder;

function childrenOf(route: RouteLabels, status: number): Children {
  holder[KEY] ??= new WeakMap();
  let byStatus = holder[KEY].get(route);
  if (!byStatus) {
    byStatus = new Map();
    holder[KEY].set(route, byStatus);
  }
  let children = byStatus.get(status);
  if (!children) {
    const { httpRequests, httpDuration } = metrics();
    const labels = { surface: route.surface, method: route.method, route: route.path, status };
    children = { requests: httpRequests.labels(labels), duration: httpDuration.labels(labels) };
    byStatus.set(status, children);
  }
  return children;
}

/** Counts one answered request of `route` and its time in seconds. */
export function observeHttpRequest(route: RouteLabels, status: number, seconds: number): void {
  const children = childrenOf(route, status);
  children.requests.inc();
  children.duration.observe(seconds);
}

/** Counts one CORS preflight (OPTIONS) answered for `route`'s path. */
export function observePreflight(route: RouteLabels, status: number, seconds: number): void {
  const labels = { surface: route.surface, method: "OPTIONS", route: route.path, status };
  metrics().httpRequests.inc(labels);
  metrics().httpDuration.observe(labels, seconds);
}
