import { readDemoTenant, type DemoTenant } from "@/lib/boot/seed-demo-tenant";
import { getConfig } from "@/lib/config";
import { NotFound } from "@/lib/errors";

/**
 * The example pages under /examples act with the demo tenant's API keys and ask nobody to sign in: a
 * development convenience. They serve only the demo tenant, and only while `SESAME_EXAMPLES` is on
 * (by default: when the public URL is localhost).
 */
export function examplesEnabled(): boolean {
  return getConfig().examples;
}

/** The demo tenant for an example page's server action; throws when the examples are off or there is none. */
export async function exampleTenant(): Promise<DemoTenant> {
  if (!examplesEnabled()) throw new NotFound("The example pages are off (SESAME_EXAMPLES).");
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
