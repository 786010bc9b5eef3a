"use server";

import { fetchAppRequest, handleAppLink, parseAppLink, type AppRequest } from "@/lib/uaf-client";
import {
  SoftwareUafAuthenticator,
  createSoftwareAuthenticatorState,
  softwareAuthenticatorStateSchema,
  type SoftwareAuthenticatorState,
} from "@/lib/ceremonies/uaf";
import { exampleLinkOrigin, exampleTenant } from "@/lib/examples";
import type { Result } from "../uaf/actions";
import { demoFacetId } from "./facet";

/*
 * The demo authenticator's "secure hardware" is the server: the software authenticator needs
 * node:crypto, so the browser keeps the state (private keys included) in localStorage and hands it to
 * these actions, which sign with it and hand the new state back. A real authenticator app keeps its
 * keys in the phone's secure element and never lets them out. The actions talk to the app-facing
 * endpoints over HTTP with the out-of-band token from the link, exactly as a phone would; they never
 * use an API key.
 */

export type { Result };

/** What the person is asked to approve. */
export interface RequestDescription {
  id: string;
  operation: AppRequest["operation"];
  status: AppRequest["status"];
  username: string;
  relyingParty: { id: string; name: string };
  /** The AppID the keys are scoped to (the FacetID when the request names none). */
  appID: string;
  transactionText?: string;
  validUntil: string;
  error?: { code: number; reason: string };
  /** How many of the authenticator's keys belong to this AppID. */
  keysForApp: number;
}

export interface ApproveOutcome {
  state: SoftwareAuthenticatorState;
  operation: AppRequest["operation"];
  /** The request as the server reads it after the answer. */
  status?: AppRequest["status"];
  error?: { code: number; reason: string };
  /** DEREG: how many keys this authenticator forgot. */
  removed?: number;
}

async function attempt<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    await exampleTenant();
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function authenticatorFrom(state: unknown): SoftwareUafAuthenticator {
  const parsed = softwareAuthenticatorStateSchema.safeParse(state);
  if (!parsed.success) throw new Error("The stored authenticator state is not readable: press Reset.");
  return new SoftwareUafAuthenticator(parsed.data);
}

/** A fresh authenticator: no keys yet, basic surrogate attestation, the Sesame origin as FacetID. */
export async function newAuthenticatorState(): Promise<Result<SoftwareAuthenticatorState>> {
  return attempt(async () => createSoftwareAuthenticatorState({ facetId: await demoFacetId() }));
}

/** "Open": fetch the request behind the link (the token is not used up) and say what it asks. */
export async function openLink(state: unknown, text: string): Promise<Result<RequestDescription>> {
  return attempt(async () => {
    const authenticator = authenticatorFrom(state);
    const request = await fetchAppRequest(parseAppLink(text, { origin: exampleLinkOrigin() }));
    const summary = authenticator.describe(request.request);
    return {
      id: request.id,
      operation: request.operation,
      status: request.status,
      username: request.username,
      relyingParty: { id: request.relyingParty.id, name: request.relyingParty.name },
      appID: summary.appID,
      ...(summary.transactionText !== undefined ? { transactionText: summary.transactionText } : {}),
      validUntil: request.validUntil,
      ...(request.error ? { error: request.error } : {}),
      keysForApp: authenticator.state.keys.filter((key) => key.appID === summary.appID).length,
    };
  });
}

/** "Approve": fetch again, sign (REG, AUTH) or forget the keys (DEREG), answer, return the new state. */
export async function approveLink(state: unknown, text: string): Promise<Result<ApproveOutcome>> {
  return attempt(async () => {
    const authenticator = authenticatorFrom(state);
    const { request, outcome, removed } = await handleAppLink(authenticator, text, {
      origin: exampleLinkOrigin(),
      deviceKeyInfo: {
        keyName: "Demo authenticator (browser)",
        deviceOs: "Web",
        model: "Sesame demo authenticator",
      },
    });
    return {
      state: authenticator.state,
      operation: request.operation,
      ...(outcome ? { status: outcome.status } : {}),
      ...(outcome?.error ? { error: outcome.error } : {}),
      ...(removed !== undefined ? { removed } : {}),
    };
  });
}
