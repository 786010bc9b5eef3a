import "server-only";
import { readDemoTenant } from "@/lib/boot/seed-demo-tenant";
import { getConfig } from "@/lib/config";

/**
 * The FacetID the in-browser authenticator claims: the Sesame origin the page runs on. The demo tenant
 * has no UAF facet list, so it trusts its web origins (`http://localhost:<port>`) as FacetIDs.
 */
export async function demoFacetId(): Promise<string> {
  return (await readDemoTenant())?.origins[0] ?? getConfig().baseUrl;
}
