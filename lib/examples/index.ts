import { headers } from "next/headers";
import { readDemoTenant, type DemoTenant } from "@/lib/boot/seed-demo-tenant";
import { getConfig, isLoopbackAddress } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { clientIp } from "@/lib/request/context";

/**
 * The example pages under /examples act with the demo tenant's API keys and ask nobody to sign in: a
 * development convenience. `SESAME_EXAMPLES` on serves them to anyone; by default (public URL on
 * localhost) they answer only clients on this machine, by the socket address Sesame's server appends
 * to `X-Forwarded-For`, so a server reachable from elsewhere does not hand out the demo keys' powers.
 */
export function examplesServe(forwardedFor: string | null): boolean {
  const mode = getConfig().examples;
  if (mode !== "local") return mode === "on";
  const ip = clientIp(forwardedFor?.split(",").map((entry) => entry.trim()) ?? []);
  return ip !== null && isLoopbackAddress(ip);
}

/** `examplesServe` for the request being rendered or the server action being run. */
export async function examplesEnabled(): Promise<boolean> {
  const mode = getConfig().examples;
  if (mode !== "local") return mode === "on";
  return examplesServe((await headers()).get("x-forwarded-for"));
}

/** The demo tenant for an example page's server action; throws when the examples are off or there is none. */
export async function exampleTenant(): Promise<DemoTenant> {
  if (!(await examplesEnabled()))
    throw new AppError("EXAMPLES_DISABLED", "The example pages are off (SESAME_EXAMPLES).");
  const tenant = await readDemoTenant();
  if (!tenant) {
    throw new Error("No demo tenant: start Sesame with an empty database and SESAME_SEED_DEMO on.");
  }
  return tenant;
}

/**
 * The only links the example authenticator may open: those of this Sesame's own public origin. Any
 * other host or port would make the server fetch it for a stranger (server-side request forgery).
 */
export function exampleLinkOrigin(): string {
  return new URL(getConfig().baseUrl).origin;
}
