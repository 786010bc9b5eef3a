/**
 * The UAF Authenticator API's out-of-band ceremony as a relying party and a phone drive it over HTTP:
 * the relying party (holding the tenant's authenticator key) creates a request and asks for its app link
 * (what the QR code encodes); the phone app (lib/uaf-client, the code the CLI and the example
 * authenticator page run, with a software authenticator) fetches the request with the link's token,
 * answers it and posts the answer; the relying party then reads the request until it is OK.
 */
import { SoftwareUafAuthenticator } from "@/lib/ceremonies/uaf";
import { handleAppLink } from "@/lib/uaf-client";
import {
  expectStatus,
  stepTimer,
  type BenchContext,
  type BenchHttp,
  type CeremonyTiming,
  type Prepared,
} from "./ceremony-bench";

/** The steps of one ceremony, as the JSON describes them. */
export const UAF_STEPS = {
  create: "POST /v1/uaf/requests {operation, userId} with the authenticator key (relying party)",
  link: "GET /v1/uaf/requests/{id}/link: the app URL with a fresh out-of-band token (what the QR code holds)",
  app: "the phone app (lib/uaf-client handleAppLink): GET /v1/uaf/app/requests/{id}?token=…, sign, PUT the answer",
  status: "GET /v1/uaf/requests/{id} (relying party) until the status is OK",
};

/** How often the relying party reads a request that is not OK yet (the app answers before it looks). */
const POLL_INTERVAL_MS = 5;
/** Reads of a request before the ceremony counts as failed. */
const MAX_POLLS = 200;

interface UafRequestView {
  id: string;
  status: string;
  error?: { code: number; reason: string };
}

class UafRelyingParty {
  private readonly auth: Record<string, string>;

  constructor(
    private readonly http: BenchHttp,
    authenticatorApiKey: string,
    /** Only links to this origin are opened by the phone (the server under test). */
    readonly origin: string,
  ) {
    this.auth = { authorization: `secret ${authenticatorApiKey}` };
  }

  async create(body: Record<string, unknown>): Promise<UafRequestView> {
    const created = await expectStatus(
      this.http.request("POST", "/v1/uaf/requests", body, this.auth),
      200,
      "POST /v1/uaf/requests",
    );
    return created as unknown as UafRequestView;
  }

  async link(id: string): Promise<string> {
    const { href } = await expectStatus(
      this.http.request("GET", `/v1/uaf/requests/${id}/link`, undefined, this.auth),
      200,
      "GET /v1/uaf/requests/{id}/link",
    );
    if (typeof href !== "string") throw new Error("the link answer has no href");
    return href;
  }

  /** Reads the request until it is no longer PENDING; throws unless it is OK. */
  async awaitOk(id: string): Promise<UafRequestView> {
    for (let poll = 0; poll < MAX_POLLS; poll++) {
      const view = (await expectStatus(
        this.http.request("GET", `/v1/uaf/requests/${id}`, undefined, this.auth),
        200,
        "GET /v1/uaf/requests/{id}",
      )) as unknown as UafRequestView;
      if (view.status === "OK") return view;
      if (view.status !== "PENDING") {
        throw new Error(`request ${id} is ${view.status}: ${JSON.stringify(view.error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
    throw new Error(`request ${id} still PENDING after ${MAX_POLLS} reads`);
  }
}

/** One ceremony of `operation` for `userId`: create → link → the phone answers → status OK. */
async function ceremony(
  rp: UafRelyingParty,
  phone: SoftwareUafAuthenticator,
  operation: "REG" | "AUTH",
  userId: string,
): Promise<CeremonyTiming> {
  const timer = stepTimer();
  const request = await timer.step("create", () =>
    rp.create(operation === "REG" ? { operation, userId, username: userId } : { operation, userId }),
  );
  const href = await timer.step("link", () => rp.link(request.id));
  const handled = await timer.step("app", () => handleAppLink(phone, href, { origin: rp.origin }));
  if (handled.request.operation !== operation) {
    throw new Error(`the app saw a ${handled.request.operation} request, not ${operation}`);
  }
  await timer.step("status", () => rp.awaitOk(request.id));
  return timer.done();
}

/**
 * One phone (software authenticator, FacetID = the tenant's origin) per user, each registered with a REG
 * ceremony over the same path; every virtual client then authenticates its user with AUTH ceremonies.
 */
export async function prepareUafDevices({ http, tenant, origin, users }: BenchContext): Promise<Prepared> {
  const rp = new UafRelyingParty(http, tenant.authenticatorApiKey, origin);
  const clients = [];
  for (let i = 0; i < users; i++) {
    const userId = `bench-uaf-user-${i}`;
    const phone = SoftwareUafAuthenticator.create({ facetId: origin });
    await ceremony(rp, phone, "REG", userId);
    clients.push(() => ceremony(rp, phone, "AUTH", userId));
  }
  return { clients };
}
