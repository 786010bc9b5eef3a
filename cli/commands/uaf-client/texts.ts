import { z } from "zod";
import {
  AppLinkError,
  AppRequestError,
  type AppLink,
  type AppRequest,
  type HandleResult,
} from "@/lib/uaf-client";
import { SoftwareAuthenticatorError } from "@/lib/ceremonies/uaf";

/**
 * What `sesame authenticator …` tells the user: its error, the line that explains each failure and the
 * one-line outcome of an answered request.
 */

/** An expected failure: one line on stderr (`Error: …`), exit code 1. */
export class UafClientCliError extends Error {
  override name = "UafClientCliError";
}

export const ATTESTATION_TEXT = { basic_surrogate: "basic surrogate", basic_full: "basic full" } as const;

export type Operation = AppRequest["operation"];

export const article = (operation: Operation) => (operation === "REG" ? "a" : "an");

/**
 * What the server sent, safe to print: control characters (terminal escapes) and bidirectional
 * overrides (text that reads differently than it is) are shown as \u{…} escapes.
 */
export function printable(text: string): string {
  const hidden = (code: number) =>
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069);
  return Array.from(text, (char) => {
    const code = char.codePointAt(0) ?? 0;
    return hidden(code) ? `\\u{${code.toString(16)}}` : char;
  }).join("");
}

/** A server that accepts the connection but never answers counts as a network failure after this long. */
export const HTTP_TIMEOUT_SECONDS = 30;

/** One clear line for everything that can go wrong between the link and the answer. */
export function explain(error: unknown, link: AppLink): Error {
  if (error instanceof UafClientCliError) return error;
  if (error instanceof AppLinkError) return new UafClientCliError(`bad link: ${error.message}`);
  if (error instanceof AppRequestError) {
    if (error.status === 401) {
      return new UafClientCliError(
        `the server refused the link (401): it was already used, its request is no longer pending, ` +
          `or it expired; ask for a new QR code`,
      );
    }
    if (error.status === 404) return new UafClientCliError(`no such request at ${link.origin} (404)`);
    if (error.status === 409) return new UafClientCliError(`cannot answer: ${error.message}`);
    return new UafClientCliError(`the server at ${link.origin} answered ${printable(error.message)}`);
  }
  if (error instanceof SoftwareAuthenticatorError) {
    return new UafClientCliError(`the authenticator cannot answer this request: ${error.message}`);
  }
  if (error instanceof Error && error.name === "TimeoutError") {
    return new UafClientCliError(`no answer from ${link.origin} within ${HTTP_TIMEOUT_SECONDS} s`);
  }
  if (error instanceof TypeError && error.message === "fetch failed") {
    const cause = error.cause as { code?: string; message?: string } | undefined;
    return new UafClientCliError(
      `cannot reach ${link.origin}: ${cause?.code ?? cause?.message ?? "network error"}`,
    );
  }
  if (error instanceof z.ZodError || error instanceof SyntaxError) {
    return new UafClientCliError(`unexpected answer from ${link.origin}: not a Sesame authenticator request`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

export function outcomeLine(result: HandleResult, keyName: string | undefined): string {
  const { request, summary } = result;
  const username = summary.username ?? request.username;
  if (request.operation === "REG") {
    return `OK: registered a new key for ${username || "the user"} at ${request.relyingParty.name}${
      keyName ? ` as ${JSON.stringify(keyName)}` : ""
    }`;
  }
  if (request.operation === "AUTH") {
    return summary.transactionText !== undefined
      ? `OK: transaction confirmed at ${request.relyingParty.name}`
      : `OK: signed in at ${request.relyingParty.name}`;
  }
  return `OK: deregistered; removed ${result.removed ?? 0} local key(s)`;
}
