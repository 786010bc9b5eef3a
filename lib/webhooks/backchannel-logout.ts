import { signToken } from "@/lib/tenants";
import { insertDirectDelivery } from "./delivery-store";
import type { ClaimedDelivery } from "./queue-store";
import { wakeWebhookWorker } from "./wake";

/**
 * OpenID Connect Back-Channel Logout 1.0 through the webhook outbox: a logout token for one client is a
 * direct delivery (no endpoint) to its `backchannel_logout_uri`, with the same queue, lease, retry
 * schedule and SSRF guard as an endpoint's deliveries. The event row keeps the token's claims; the
 * token is signed at each attempt (fresh `iat`/`exp`, the delivery id as `jti`), so a retry hours
 * later still carries a token the client accepts.
 */
export const BACKCHANNEL_LOGOUT_EVENT = "oauth.backchannel_logout";

const LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";

/** A logout token's lifetime in seconds from its attempt. */
const LOGOUT_TOKEN_SECONDS = 120;

export interface BackchannelLogout {
  /** The client's `backchannel_logout_uri`. */
  uri: string;
  /** The OpenID Provider's issuer (`iss`). */
  issuer: string;
  /** `aud`. */
  clientId: string;
  /** The user (`sub`). */
  subject: string;
  /** The ended session (`sid`). */
  sessionId: string;
}

interface LogoutData {
  iss: string;
  aud: string;
  sub: string;
  sid: string;
}

/** Queues a logout token for one client (joins the caller's transaction). */
export async function enqueueBackchannelLogout(tenantId: string, logout: BackchannelLogout): Promise<void> {
  const data: LogoutData = {
    iss: logout.issuer,
    aud: logout.clientId,
    sub: logout.subject,
    sid: logout.sessionId,
  };
  await insertDirectDelivery(tenantId, BACKCHANNEL_LOGOUT_EVENT, data, logout.uri);
  wakeWebhookWorker();
}

/** The form fields of one attempt: `logout_token`, signed now with the tenant's active key. */
export async function logoutTokenFields({
  delivery,
  event,
}: ClaimedDelivery): Promise<Record<string, string>> {
  const data = event.data as LogoutData;
  const token = await signToken(
    event.tenantId,
    { sid: data.sid, jti: delivery.id, events: { [LOGOUT_EVENT]: {} } },
    {
      issuer: data.iss,
      audience: data.aud,
      subject: data.sub,
      expiresIn: LOGOUT_TOKEN_SECONDS,
      type: "logout+jwt",
    },
  );
  return { logout_token: token };
}
