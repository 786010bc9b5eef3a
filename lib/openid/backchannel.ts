import { getConfig } from "@/lib/config";
import { transaction } from "@/lib/db";
import { enqueueBackchannelLogout } from "@/lib/webhooks";
import { takeEndedSessionClients } from "./store";

/**
 * OpenID Connect Back-Channel Logout 1.0. Every authorization code issued records which Sesame session
 * gave which client tokens (`oauth_session_clients`; the code's and ID token's `sid` is that session's
 * id). This sweep finds the rows whose session ended, whatever ended it (logout by the public API, the
 * flow API or the hosted page, RP-initiated logout, an admin's revocation, the user's lock or deletion,
 * the session limit, expiry), and queues one logout token per client that registered a
 * `backchannel_logout_uri`, in the webhook outbox (lib/webhooks: retries, SSRF guard, leases), in the
 * same transaction as the rows' deletion: nothing is lost to a crash, nothing is sent twice by two
 * instances. Runs in the background of every instance every few seconds (lib/boot). Returns the number
 * of logout tokens queued.
 */
export async function queueBackchannelLogouts(options: { batchSize?: number; maxBatches?: number } = {}) {
  const batchSize = options.batchSize ?? 200;
  const maxBatches = options.maxBatches ?? 20;
  let queued = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const taken = await transaction(async () => {
      const ended = await takeEndedSessionClients(batchSize);
      for (const row of ended) {
        if (!row.logoutUri) continue;
        await enqueueBackchannelLogout(row.tenantId, {
          uri: row.logoutUri,
          issuer: `${getConfig().baseUrl}/t/${row.tenantId}`,
          clientId: row.clientId,
          subject: row.accountId,
          sessionId: row.sessionId,
        });
        queued += 1;
      }
      return ended.length;
    });
    if (taken < batchSize) break;
  }
  return queued;
}
