import { selectTenants } from "./store";
import type { Tenant } from "./tenant";

export function listTenants(): Promise<Tenant[]> {
  return selectTenants();
}
