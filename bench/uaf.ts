/**
 * `npm run bench:uaf`: the UAF Authenticator API's AUTH ceremony (create the request → the phone app
 * answers it out of band → the relying party reads it until OK) per second, latency, server CPU and
 * memory of Sesame's server at concurrency 1 and 16. See bench/README.md.
 *
 *   npm run bench:uaf                      3 windows of 8 s per concurrency on PGlite
 *   npm run bench:uaf -- --quick           one window of 3 s
 *   npm run bench:uaf -- --db postgres     a throwaway Postgres 15 (or both)
 *   npm run bench:uaf -- --users 64        registered devices (≥ 16)
 *   npm run bench:uaf -- --windows 5       measurement windows; the median is reported
 *   npm run bench:uaf -- --cpu-prof        V8 CPU profile of the server (kept in a temp folder)
 */
import { runCeremonyBench } from "./lib/ceremony-bench";
import { prepareUafDevices, UAF_STEPS } from "./lib/uaf-client";

void runCeremonyBench({
  name: "uaf",
  title:
    "UAF AUTH ceremonies (create request, app link, the phone app fetches and answers, status OK: 5 requests)",
  // The software authenticator's surrogate attestation is accepted only with test authenticators on.
  tenantArgs: ["--uaf-test-authenticators", "true"],
  steps: UAF_STEPS,
  prepare: prepareUafDevices,
});
