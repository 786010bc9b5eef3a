/**
 * `npm run bench:flow`: the flow API's passkey login (as @teamhanko/hanko-elements sends it: start,
 * client capabilities, the passkey button's request options, the signed assertion → a session) per
 * second, latency, server CPU and memory of Sesame's server at concurrency 1 and 16. See bench/README.md.
 *
 *   npm run bench:flow                     3 windows of 8 s per concurrency on PGlite
 *   npm run bench:flow -- --quick          one window of 3 s
 *   npm run bench:flow -- --autofill       conditional UI: the assertion answers login_init's options
 *   npm run bench:flow -- --db postgres    a throwaway Postgres 15 (or both)
 *   npm run bench:flow -- --users 64       registered users (≥ 16)
 *   npm run bench:flow -- --windows 5      measurement windows; the median is reported
 *   npm run bench:flow -- --cpu-prof       V8 CPU profile of the server (kept in a temp folder)
 */
import { runCeremonyBench } from "./lib/ceremony-bench";
import { FLOW_STEPS, prepareFlowLogins } from "./lib/flow-client";

// Read here and removed, so the harness's strict option parser sees only its own options.
const autofill = process.argv.includes("--autofill");
process.argv = process.argv.filter((arg) => arg !== "--autofill");

void runCeremonyBench({
  name: autofill ? "flow-autofill" : "flow",
  title: autofill
    ? "Flow API passkey logins with conditional UI (start, capabilities, verify: 3 requests)"
    : "Flow API passkey logins with the passkey button (start, capabilities, options, verify: 4 requests)",
  // One client on loopback plays every user: the per-IP limit of flow requests is lifted.
  tenantArgs: ["--rate-limit", "flow=100000/1"],
  steps: FLOW_STEPS,
  prepare: prepareFlowLogins(autofill),
});
