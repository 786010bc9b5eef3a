/**
 * `npm run build`: the elements bundle, then `next build`, then the fingerprint `npm start` checks
 * (scripts/lib/build.ts), so the `npm start` that follows serves this build instead of building again.
 * Refused while a server or another build runs from this folder.
 */
import { build } from "./lib/build";

if (!build()) {
  process.stderr.write("\nThe build did not complete; see the messages above.\n");
  process.exit(1);
}
