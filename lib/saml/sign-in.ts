import * as xpath from "xpath";
import type { Profile } from "@node-saml/node-saml";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { constantTimeEqual, randomToken, sha256Hex } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import {
  BINDING_COOKIE_PATH,
  bindingCookieName,
  explainRefusal,
  isAllowedRedirect,
  withQuery,
} from "@/lib/thirdparty";
import { signInWithIdentity } from "@/lib/accounts";
import { mintOneTimeToken } from "@/lib/one-time-tokens";
import type { Tenant } from "@/lib/tenants";
import { parseXml } from "./metadata";
import { DEFAULT_ATTRIBUTES, findEnabledProviderForDomain, type AttributeMapping } from "./providers";
import { CLOCK_SKEW_MS, REQUEST_TTL_SECONDS, samlClient, serviceProviderUrls } from "./service-provider";
import { consumeRequest, insertAssertion, insertRequest, selectProvider, sweepExpired } from "./store";

/**
 * A failure after the browser's way back is known (the stored request's redirect_to): the route answers
 * with a redirect carrying `error` and `error_description` (lib/thirdparty's errorRedirect, the same
 * query as a third-party sign-in) instead of a JSON error.
 */
export class SamlRedirectError extends AppError {
  constructor(
    readonly redirectTo: string,
    cause: AppError,
  ) {
    super(cause.code, cause.message, { details: cause.details, cause });
  }
}

const SWEEP_EVERY = 64;

/** The cookie that binds a started sign-in to the browser that started it, by its base name. */
export const SAML_BROWSER_COOKIE = "sesame_saml";
/** Its name on the wire (`__Host-sesame_saml` on https). */
export const samlCookieName = () => bindingCookieName(SAML_BROWSER_COOKIE);
const BROWSER_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** Where to send the browser, and the binding cookie to set on the way. */
export interface SamlStart {
  redirectUrl: string;
  /**
   * SameSite=None (hence Secure): the IdP's answer is a cross-site form POST, which a Lax cookie does not
   * follow. `Path=/`: the token exchange checks it too. Lives as long as a request.
   */
  cookie: { name: string; value: string; maxAgeSeconds: number; path: string; sameSite: "none" };
}

/** An absolute URL the tenant allows as a destination, or REDIRECT_NOT_ALLOWED. */
function checkRedirect(tenant: Tenant, raw: string): string {
  // The same rule as third-party sign-in: the tenant's origins, or its hosted pages on Sesame.
  if (!isAllowedRedirect(tenant, [], raw)) {
    throw new AppError("REDIRECT_NOT_ALLOWED", undefined, {
      details: ["redirect_to: must be a URL on one of the tenant's origins"],
    });
  }
  return new URL(raw).href;
}

/**
 * `GET /saml/sso`: the IdP for the email domain (or id) and the URL of an AuthnRequest to it (HTTP-Redirect,
 * signed when the IdP asks for it). The request id is stored with the tenant, the IdP, the checked
 * `redirect_to` and the hash of the browser's binding cookie, for REQUEST_TTL_SECONDS; the ACS takes it once.
 */
export async function startSamlSignIn(
  tenant: Tenant,
  input: {
    domain?: string | undefined;
    idpId?: string | undefined;
    redirectTo: string;
    /** The binding cookie the browser already has (reused, so two tabs can sign in at once). */
    browser?: string | undefined;
  },
  context: AuditContext,
): Promise<SamlStart> {
  return auditFailures(tenant.id, "saml.sso", context, async () => {
    const browser = input.browser && BROWSER_VALUE.test(input.browser) ? input.browser : randomToken(32);
    const redirectTo = checkRedirect(tenant, input.redirectTo);
    const idp = input.idpId
      ? await selectProvider(tenant.id, input.idpId)
      : await findEnabledProviderForDomain(tenant.id, input.domain ?? "");
    if (!idp || !idp.enabled) throw new AppError("SAML_PROVIDER_NOT_FOUND");
    const saml = await samlClient(
      tenant.id,
      idp,
      {
        saveAsync: async (requestId, value) => {
          await insertRequest({
            tenantId: tenant.id,
            requestId,
            idpId: idp.id,
            redirectTo,
            browserHash: sha256Hex(browser),
            ttlSeconds: REQUEST_TTL_SECONDS,
          });
          return { value, createdAt: Date.now() };
        },
        getAsync: async () => null,
        removeAsync: async () => null,
      },
      "request",
    );
    const url = await saml.getAuthorizeUrlAsync("", undefined, {});
    if (Math.random() * SWEEP_EVERY < 1) await sweepExpired();
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "saml.sso.started",
      details: { idp_id: idp.id, signed: idp.signRequests },
    });
    return {
      redirectUrl: url,
      cookie: {
        name: samlCookieName(),
        value: browser,
        maxAgeSeconds: REQUEST_TTL_SECONDS,
        path: BINDING_COOKIE_PATH,
        sameSite: "none" as const,
      },
    };
  });
}

/**
 * A refused response. `detail` is what the browser is told (error_description); `internal`, the library's
 * own words, only reaches the audit log (it can name internals, and a stranger posts the response).
 */
const invalid = (detail: string, internal?: string) =>
  new AppError("SAML_RESPONSE_INVALID", undefined, { details: internal ? [detail, internal] : [detail] });

const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
const protocol = xpath.useNamespaces({ samlp: PROTOCOL });

/** The IdP's answer in the Response's own Status: its top-level code, the second-level one, its message. */
interface ResponseStatus {
  code: string | undefined;
  subCode: string | undefined;
  message: string | undefined;
}

/**
 * The outer Response's InResponseTo (read before any check only to find the stored request), Destination
 * and Status. Everything is read on the document element itself, never by searching the document, so a
 * Status (or a Success code) planted deeper, as in signature wrapping, is not the one read; two Status
 * children are no answer at all.
 */
function outerResponse(xml: string): {
  inResponseTo: string | undefined;
  destination: string | undefined;
  status: ResponseStatus | undefined;
} {
  const document = parseXml(xml);
  if (!document) throw invalid("SAMLResponse: not well-formed XML");
  const root = document.documentElement;
  const isResponse = root.localName === "Response" && root.namespaceURI === PROTOCOL;
  const attribute = (name: string) =>
    isResponse && root.hasAttribute(name) ? root.getAttribute(name)! : undefined;
  const statuses = isResponse ? (protocol("samlp:Status", root as unknown as Node) as Element[]) : [];
  let status: ResponseStatus | undefined;
  if (statuses.length === 1) {
    const top = protocol("samlp:StatusCode", statuses[0]!) as Element[];
    const second = top.length === 1 ? (protocol("samlp:StatusCode", top[0]!) as Element[]) : [];
    const message = protocol("string(samlp:StatusMessage)", statuses[0]!) as unknown as string;
    status = {
      code: top.length === 1 ? (top[0]!.getAttribute("Value") ?? undefined) : undefined,
      subCode: second[0]?.getAttribute("Value") ?? undefined,
      // The IdP's own words, for the audit log only: printable, one line, short.
      message:
        message
          .replace(/[^\x20-\x7e\u00a0-\uffff]+/g, " ")
          .replace(/\s+/g, " ")
          .trim()
          .slice(0, 200) || undefined,
    };
  }
  return { inResponseTo: attribute("InResponseTo"), destination: attribute("Destination"), status };
}

/**
 * The IdP's answer must be Success before anything else is looked at: node-saml reads the assertion
 * first and would sign the user in from a signed assertion inside a Responder (or any other) answer.
 * The browser is told the top-level code's name; the audit log gets both codes and the message.
 */
function checkStatus(status: ResponseStatus | undefined): void {
  if (status?.code === SUCCESS) return;
  if (!status?.code) {
    throw invalid("the response has no Status (exactly one Status with one StatusCode is required)");
  }
  const short = (value: string) => value.replace(/^urn:oasis:names:tc:SAML:2\.0:status:/, "");
  throw invalid(
    `the identity provider answered with status ${short(status.code).slice(0, 100)}, not Success`,
    [
      `idp status ${status.code.slice(0, 200)}`,
      status.subCode ? `second-level status ${status.subCode.slice(0, 200)}` : undefined,
      status.message ? `message: ${status.message}` : undefined,
    ]
      .filter(Boolean)
      .join("; "),
  );
}

type XmlJs = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const children = (node: XmlJs | undefined, name: string): XmlJs[] =>
  (node?.[name] as XmlJs[] | undefined) ?? [];

/**
 * The checks node-saml leaves to its caller, on the assertion it verified (never on the raw document):
 * the issuer is the IdP's entity id, a bearer SubjectConfirmation names our ACS as Recipient and answers
 * our request, and the assertion has an ID. Returns the ID and how long to remember it.
 */
function checkVerifiedAssertion(
  profile: Profile,
  expected: { issuer: string; acsUrl: string; requestId: string },
): { assertionId: string; expiresAt: Date; nameIdFormat: string | undefined } {
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlJs } | undefined)?.Assertion;
  if (!assertion) throw invalid("no verified assertion");
  const issuer = children(assertion, "Issuer")[0]?._?.trim();
  if (issuer !== expected.issuer) throw invalid("the assertion's Issuer is not the identity provider");
  const assertionId = assertion.$?.ID;
  if (!assertionId) throw invalid("the assertion has no ID");
  const subject = children(assertion, "Subject")[0];
  const confirmations = children(subject, "SubjectConfirmation").filter(
    (confirmation) => confirmation.$?.Method === "urn:oasis:names:tc:SAML:2.0:cm:bearer",
  );
  const data = confirmations.flatMap((confirmation) => children(confirmation, "SubjectConfirmationData"));
  if (!data.some((entry) => entry.$?.Recipient === expected.acsUrl)) {
    throw invalid("the assertion's Recipient is not this tenant's ACS URL");
  }
  if (!data.some((entry) => entry.$?.InResponseTo === expected.requestId)) {
    throw invalid("the assertion does not answer this request (SubjectConfirmationData InResponseTo)");
  }
  const times = [
    children(assertion, "Conditions")[0]?.$?.NotOnOrAfter,
    ...data.map((entry) => entry.$?.NotOnOrAfter),
  ]
    .map((value) => (value ? Date.parse(value) : NaN))
    .filter((value) => Number.isFinite(value));
  // Remembered until the assertion could no longer pass (plus the skew); at most a day.
  const until = Math.min(
    (times.length ? Math.max(...times) : Date.now() + REQUEST_TTL_SECONDS * 1000) + CLOCK_SKEW_MS,
    Date.now() + 86_400_000,
  );
  return { assertionId, expiresAt: new Date(until), nameIdFormat: profile.nameIDFormat || undefined };
}

function firstValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" && first.trim() !== "" ? first.trim() : undefined;
}

function attributeValue(
  attributes: Record<string, unknown>,
  configured: string | undefined,
  defaults: readonly string[],
): unknown {
  for (const name of configured ? [configured] : defaults) {
    if (attributes[name] !== undefined) return attributes[name];
  }
  return undefined;
}

const TRANSIENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Email, name and groups by the IdP's mapping (else the usual names); the NameID when it is an email. */
export function mapAttributes(profile: Profile, mapping: AttributeMapping) {
  const attributes = (profile.attributes as Record<string, unknown> | undefined) ?? {};
  let email = firstValue(attributeValue(attributes, mapping.email, DEFAULT_ATTRIBUTES.email));
  if (!email && EMAIL.test(profile.nameID ?? "")) email = profile.nameID;
  let name = firstValue(attributeValue(attributes, mapping.name, DEFAULT_ATTRIBUTES.name));
  if (!name && !mapping.name) {
    const given = firstValue(attributeValue(attributes, undefined, DEFAULT_ATTRIBUTES.givenName));
    const family = firstValue(attributeValue(attributes, undefined, DEFAULT_ATTRIBUTES.familyName));
    name = [given, family].filter(Boolean).join(" ") || undefined;
  }
  const rawGroups = attributeValue(attributes, mapping.groups, DEFAULT_ATTRIBUTES.groups);
  const groups = (Array.isArray(rawGroups) ? rawGroups : rawGroups === undefined ? [] : [rawGroups]).filter(
    (group): group is string => typeof group === "string",
  );
  return { email: email && EMAIL.test(email) ? email.toLowerCase() : undefined, name, groups };
}

const MAX_RESPONSE_CHARS = 512 * 1024;

/**
 * `POST /saml/acs`: verifies the IdP's response and signs the user in. The outer InResponseTo names the
 * stored request of THIS tenant, which is taken once (DELETE … RETURNING) before node-saml runs, and must
 * come from the browser that started it (`browser`: its binding cookie); node-saml
 * then checks the signatures (the assertion must be signed by the IdP's certificate), audience, times and
 * InResponseTo; {@link checkVerifiedAssertion} the rest, on the verified assertion only (no XML signature
 * wrapping: nothing is read from unsigned parts but the lookup key). The assertion id is recorded until it
 * expires (SAML_ASSERTION_REPLAYED on a second use). Then the identity signs in (JIT sign-up, linking
 * by an email of the IdP's domains) and a one-time token (amr `ext:saml`) goes back to `redirect_to`.
 * Returns the URL to send the browser to; failures after the request was found are SamlRedirectError.
 */
export async function completeSamlSignIn(
  tenant: Tenant,
  // RelayState is not read: the request id (InResponseTo) already names the stored request.
  form: { SAMLResponse?: string | undefined },
  browser: string | undefined,
  context: AuditContext,
): Promise<string> {
  return auditFailures(tenant.id, "saml.acs", context, async () => {
    const encoded = form.SAMLResponse?.replace(/\s+/g, "") ?? "";
    if (!encoded || encoded.length > MAX_RESPONSE_CHARS || !/^[A-Za-z0-9+/]+=*$/.test(encoded)) {
      throw invalid("SAMLResponse: must be a base64 SAML response");
    }
    const xml = Buffer.from(encoded, "base64").toString("utf8");
    // No IdP sends a DTD; refusing it keeps entity tricks away from every XML parser on the way.
    if (/<!DOCTYPE/i.test(xml)) throw invalid("SAMLResponse: a DOCTYPE is not allowed");
    const outer = outerResponse(xml);
    if (!outer.inResponseTo) throw invalid("the response has no InResponseTo (IdP-initiated sign-in is off)");
    const request = await consumeRequest(tenant.id, outer.inResponseTo);
    if (!request)
      throw invalid("InResponseTo names no pending request of this tenant (unknown, used or expired)");
    try {
      // Login CSRF: a valid response posted from another browser than the one that asked for it.
      // Fail closed: a request without a browser hash (none are written) is no one's.
      if (!request.browserHash || !(browser && constantTimeEqual(sha256Hex(browser), request.browserHash))) {
        throw invalid("the sign-in was started in another browser (or its cookie is missing)");
      }
      checkStatus(outer.status);
      return await verifyAndSignIn(
        tenant,
        { ...request, browserHash: request.browserHash },
        encoded,
        outer.destination,
        context,
      );
    } catch (error) {
      if (error instanceof AppError) throw new SamlRedirectError(request.redirectTo, error);
      throw error;
    }
  });
}

async function verifyAndSignIn(
  tenant: Tenant,
  request: { requestId: string; idpId: string; redirectTo: string; createdAt: Date; browserHash: string },
  encoded: string,
  destination: string | undefined,
  context: AuditContext,
): Promise<string> {
  const idp = await selectProvider(tenant.id, request.idpId);
  if (!idp || !idp.enabled) throw new AppError("SAML_PROVIDER_NOT_FOUND");
  const { acsUrl } = serviceProviderUrls(tenant.id);
  // Destination sits on the (often unsigned) Response; a wrong one is refused all the same.
  if (destination !== undefined && destination !== acsUrl) {
    throw invalid("the response's Destination is not this tenant's ACS URL");
  }
  const saml = await samlClient(
    tenant.id,
    idp,
    {
      // Only the request this response was matched to is known to node-saml; it is already taken.
      getAsync: async (key) => (key === request.requestId ? request.createdAt.toISOString() : null),
      saveAsync: async () => null,
      removeAsync: async () => null,
    },
    "response",
  );
  let profile: Profile | null;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: encoded }));
  } catch (error) {
    throw invalid(
      "the response did not verify (signature, audience, time or InResponseTo)",
      error instanceof Error ? error.message.slice(0, 300) : undefined,
    );
  }
  if (!profile) throw invalid("the response carries no assertion");
  const verified = checkVerifiedAssertion(profile, {
    issuer: idp.entityId,
    acsUrl,
    requestId: request.requestId,
  });
  const fresh = await insertAssertion({
    tenantId: tenant.id,
    idpId: idp.id,
    assertionId: verified.assertionId,
    expiresAt: verified.expiresAt,
  });
  if (!fresh) throw new AppError("SAML_ASSERTION_REPLAYED", "this assertion was used already (replay)");
  if (!profile.nameID) throw invalid("the assertion has no NameID");
  // A transient NameID changes at every sign-in: keyed on it, each sign-in would be a new identity.
  if (verified.nameIdFormat === TRANSIENT) {
    throw invalid("the IdP sends a transient NameID; configure a persistent, email or unspecified NameID");
  }
  const mapping = idp.attributeMapping as AttributeMapping;
  const mapped = mapAttributes(profile, mapping);
  const domain = mapped.email?.split("@")[1];
  // The IdP vouches only for addresses of the domains it was configured to serve.
  const vouched = domain !== undefined && idp.domains.includes(domain);
  const { user, outcome } = await signInWithIdentity(
    tenant,
    {
      kind: "saml",
      providerId: idp.id,
      subject: profile.nameID,
      email: mapped.email ?? null,
      emailVerified: vouched,
      claims: {
        issuer: idp.entityId,
        ...(verified.nameIdFormat ? { name_id_format: verified.nameIdFormat } : {}),
        ...(mapped.name ? { name: mapped.name } : {}),
        ...(mapped.groups.length ? { groups: mapped.groups } : {}),
      },
    },
    { allowLinking: idp.allowLinking },
    context,
  ).catch((error: unknown) => {
    throw explainRefusal(error, {
      THIRD_PARTY_EMAIL_UNVERIFIED: vouched
        ? [
            "this email address belongs to another account",
            "the address (of one of the IdP's domains) is held by another account and could not be taken",
          ]
        : [
            "the identity provider does not vouch for this email address",
            `the asserted address's domain ${domain ?? "(none)"} is not one of the IdP's domains ` +
              `(${idp.domains.join(", ")}), so the address counts as unverified: it links to no existing ` +
              "account, and creates none while the tenant requires verified addresses",
          ],
      THIRD_PARTY_EMAIL_MISSING: [
        "the identity provider sent no email address",
        `no email in ${mapping.email ? `the mapped attribute ${mapping.email}` : "the usual attributes"} ` +
          "and the NameID is not an address",
      ],
      THIRD_PARTY_LINKING_DISABLED: [
        "an account with this email address exists",
        "the address belongs to an existing account and the IdP's allow_linking is off",
      ],
    });
  });
  // Bound to the browser whose cookie the ACS checked: only it exchanges the token (login CSRF).
  const token = await mintOneTimeToken(tenant, user.id, {
    amr: ["ext:saml"],
    binding: { browserHash: request.browserHash },
  });
  await recordAuditEvent(tenant.id, {
    ...context,
    actor: user.id,
    type: "saml.acs.succeeded",
    details: { idp_id: idp.id, outcome, assertion_id: verified.assertionId },
  });
  return withQuery(request.redirectTo, { hanko_token: token });
}
