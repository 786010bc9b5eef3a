import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { z } from "zod";
import {
  AppLinkError,
  AppRequestError,
  handleAppLink,
  parseAppLink,
  type AppLink,
  type AppRequest,
  type HandleResult,
} from "@/lib/authenticator-app";
import {
  AAID_PATTERN,
  SoftwareAuthenticatorError,
  SoftwareUafAuthenticator,
  createSoftwareAuthenticatorState,
  softwareAuthenticatorStateSchema,
  type RequestSummary,
  type SoftwareAuthenticatorState,
} from "@/lib/ceremonies/uaf";
import { printJson, printTable, UsageError } from "../output";
import type { Command, CommandInput } from "./command";

/**
 * `sesame authenticator …`: the phone app of the out-of-band flow, on the command line. It reads the
 * link a QR code holds, shows what the request asks, answers it with a software UAF authenticator and
 * keeps that authenticator's keys in a local JSON file (mode 0600; it holds private keys). It speaks
 * HTTP only, to the origin in the link: these commands never open Sesame's database, so they work
 * next to a running server and against any Sesame instance.
 */

const FILE_FORMAT = "sesame-cli-authenticator/1";
const FILE_NAME = "authenticator.json";

/** The key file: the authenticator's state, with its FacetID kept apart so the first link can set it. */
const keyFileSchema = z.object({
  format: z.literal(FILE_FORMAT),
  /** The FacetID this "app" claims; null until the first answered link sets it to that link's origin. */
  facetId: z.string().min(1).nullable(),
  authenticator: softwareAuthenticatorStateSchema.omit({ facetId: true }),
});
type KeyFile = z.infer<typeof keyFileSchema>;

/** An expected failure: one line on stderr (`Error: …`), exit code 1. */
class AuthenticatorCliError extends Error {
  override name = "AuthenticatorCliError";
}

/** `$SESAME_DATA_DIR/authenticator.json`, i.e. `./.data/authenticator.json` by default. */
export function defaultKeyFile(): string {
  return path.resolve(process.env.SESAME_DATA_DIR || "./.data", FILE_NAME);
}

function fileOf(values: CommandInput["values"]): string {
  return typeof values.file === "string" ? path.resolve(values.file) : defaultKeyFile();
}

function readKeyFile(file: string): KeyFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new AuthenticatorCliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AuthenticatorCliError(`${file} is not JSON; is it an authenticator key file?`);
  }
  const result = keyFileSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new AuthenticatorCliError(
      `${file} is not a Sesame authenticator key file (${issue?.path.join(".") || "format"}: ${issue?.message})`,
    );
  }
  return result.data;
}

function requireKeyFile(file: string): KeyFile {
  const keyFile = readKeyFile(file);
  if (!keyFile) {
    throw new AuthenticatorCliError(
      `no authenticator key file at ${file}: run authenticator init, or scan a link (which creates it)`,
    );
  }
  return keyFile;
}

/** Written to a temporary file first and renamed, so a crash never leaves half a key file. */
function writeKeyFile(file: string, keyFile: KeyFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(keyFile, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

function newKeyFile(options: {
  facetId: string | null;
  attestation: "basic_surrogate" | "basic_full";
  aaid?: string;
}): KeyFile {
  const state = createSoftwareAuthenticatorState({
    // Replaced by the first link's origin when null (the state itself always needs one).
    facetId: options.facetId ?? "unset",
    attestation: options.attestation,
    ...(options.aaid ? { aaid: options.aaid } : {}),
  });
  return { format: FILE_FORMAT, facetId: options.facetId, authenticator: withoutFacetId(state) };
}

function withoutFacetId(state: SoftwareAuthenticatorState): KeyFile["authenticator"] {
  const { facetId: _facetId, ...rest } = state;
  return rest;
}

function attestationOf(value: unknown): "basic_surrogate" | "basic_full" {
  if (value === undefined || value === "surrogate" || value === "basic_surrogate") return "basic_surrogate";
  if (value === "full" || value === "basic_full") return "basic_full";
  throw new UsageError("--attestation must be surrogate or full");
}

const rootPemOf = (keyFile: KeyFile) =>
  keyFile.authenticator.attestation.type === "basic_full"
    ? keyFile.authenticator.attestation.rootPem
    : undefined;

const ATTESTATION_TEXT = { basic_surrogate: "basic surrogate", basic_full: "basic full" } as const;

export const authenticatorInit: Command = {
  name: "authenticator init",
  usage:
    "authenticator init [--file <path>] [--facet-id <id>] [--attestation surrogate|full] [--aaid <VVVV#MMMM>] " +
    "[--force] [--json]",
  description:
    "Create the software authenticator's key file (default $SESAME_DATA_DIR/authenticator.json, mode 0600). " +
    "Without --facet-id the first scanned link's origin becomes the FacetID.",
  options: {
    file: { type: "string" },
    "facet-id": { type: "string" },
    attestation: { type: "string" },
    aaid: { type: "string" },
    force: { type: "boolean" },
  },
  async run({ values, json }) {
    const file = fileOf(values);
    const attestation = attestationOf(values.attestation);
    const facetId = typeof values["facet-id"] === "string" ? values["facet-id"].trim() : null;
    if (facetId === "") throw new UsageError("--facet-id must not be empty");
    const aaid = typeof values.aaid === "string" ? values.aaid : undefined;
    if (aaid !== undefined && !AAID_PATTERN.test(aaid)) {
      throw new UsageError("--aaid must be an AAID such as FFFF#5E5A (VVVV#MMMM in hex)");
    }
    if (readKeyFile(file) && values.force !== true) {
      throw new AuthenticatorCliError(`${file} already exists; --force replaces it (its keys are lost)`);
    }
    const keyFile = newKeyFile({ facetId, attestation, ...(aaid ? { aaid } : {}) });
    writeKeyFile(file, keyFile);
    const rootPem = rootPemOf(keyFile);
    if (json) {
      return printJson({
        file,
        aaid: keyFile.authenticator.aaid,
        facetId,
        attestation,
        ...(rootPem ? { attestationRootPem: rootPem } : {}),
      });
    }
    process.stdout.write(
      `Created ${file}: AAID ${keyFile.authenticator.aaid}, ${ATTESTATION_TEXT[attestation]} attestation, ` +
        `FacetID ${facetId ?? "(the first link's origin)"}\n`,
    );
    if (rootPem) {
      process.stdout.write(
        `Tenants must trust its attestation root (npm run -s sesame -- authenticator root > root.pem, then ` +
          `tenant update <tenant-id> --uaf-trusted-root root.pem):\n${rootPem.trim()}\n`,
      );
    }
  },
};

const SCAN_OPTIONS = {
  file: { type: "string" },
  yes: { type: "boolean", short: "y" },
  "key-name": { type: "string" },
} as const;

type Operation = AppRequest["operation"];

const article = (operation: Operation) => (operation === "REG" ? "a" : "an");

/**
 * What the server sent, safe to print: control characters (terminal escapes) and bidirectional
 * overrides (text that reads differently than it is) are shown as \u{…} escapes.
 */
function printable(text: string): string {
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

/** Shows the request, then asks on a terminal; without one only --yes lets it answer. */
async function confirmation(
  summary: RequestSummary,
  request: AppRequest,
  options: { yes: boolean; expected: Operation | undefined; out: NodeJS.WritableStream; facetId: string },
): Promise<boolean> {
  if (options.expected && request.operation !== options.expected) {
    throw new AuthenticatorCliError(
      `this link is ${article(request.operation)} ${request.operation} request, not ${options.expected}; ` +
        `nothing was sent ` +
        `(authenticator scan answers any operation)`,
    );
  }
  const rp = request.relyingParty;
  const lines = [
    `Request      ${request.operation} ${request.id}, valid until ${request.validUntil}`,
    `From         ${rp.name} (relying party ${rp.id})`,
    `AppID        ${summary.appID}${summary.appID === options.facetId ? "" : ` (as FacetID ${options.facetId})`}`,
  ];
  const username = summary.username ?? request.username;
  if (username) lines.push(`User         ${username}`);
  // The text the signature covers (from the UAF message itself), quoted so its edges are visible.
  if (summary.transactionText !== undefined) {
    lines.push(`Transaction  ${JSON.stringify(summary.transactionText)}`);
  }
  options.out.write(`${lines.map(printable).join("\n")}\n`);
  if (options.yes) return true;
  const what =
    request.operation === "REG"
      ? "Register a new key"
      : request.operation === "DEREG"
        ? "Remove the keys this request names"
        : summary.transactionText !== undefined
          ? "Confirm this transaction"
          : "Sign in";
  if (!process.stdin.isTTY) {
    throw new AuthenticatorCliError(
      `not answered: confirming needs a terminal (stdin is not one); add --yes to answer without asking`,
    );
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${what}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

/** A server that accepts the connection but never answers counts as a network failure after this long. */
const HTTP_TIMEOUT_SECONDS = 30;

/** One clear line for everything that can go wrong between the link and the answer. */
function explain(error: unknown, link: AppLink): Error {
  if (error instanceof AuthenticatorCliError) return error;
  if (error instanceof AppLinkError) return new AuthenticatorCliError(`bad link: ${error.message}`);
  if (error instanceof AppRequestError) {
    if (error.status === 401) {
      return new AuthenticatorCliError(
        `the server refused the link (401): it was already used, its request is no longer pending, ` +
          `or it expired; ask for a new QR code`,
      );
    }
    if (error.status === 404) return new AuthenticatorCliError(`no such request at ${link.origin} (404)`);
    if (error.status === 409) return new AuthenticatorCliError(`cannot answer: ${error.message}`);
    return new AuthenticatorCliError(`the server at ${link.origin} answered ${printable(error.message)}`);
  }
  if (error instanceof SoftwareAuthenticatorError) {
    return new AuthenticatorCliError(`the authenticator cannot answer this request: ${error.message}`);
  }
  if (error instanceof Error && error.name === "TimeoutError") {
    return new AuthenticatorCliError(`no answer from ${link.origin} within ${HTTP_TIMEOUT_SECONDS} s`);
  }
  if (error instanceof TypeError && error.message === "fetch failed") {
    const cause = error.cause as { code?: string; message?: string } | undefined;
    return new AuthenticatorCliError(
      `cannot reach ${link.origin}: ${cause?.code ?? cause?.message ?? "network error"}`,
    );
  }
  if (error instanceof z.ZodError || error instanceof SyntaxError) {
    return new AuthenticatorCliError(
      `unexpected answer from ${link.origin}: not a Sesame authenticator request`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function payloadOf(positionals: string[]): Promise<string> {
  if (positionals.length !== 1) {
    throw new UsageError("give exactly one link: the QR code's payload (…/v1/uaf/app/requests/<id>?token=…)");
  }
  const [payload = ""] = positionals;
  if (payload !== "-") return payload;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

function outcomeLine(result: HandleResult, keyName: string | undefined): string {
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

async function answer({ values, positionals, json }: CommandInput, expected?: Operation): Promise<void> {
  const payload = await payloadOf(positionals);
  let link: AppLink;
  try {
    link = parseAppLink(payload);
  } catch (error) {
    throw explain(error, { url: payload, origin: "", requestId: "" });
  }
  const file = fileOf(values);
  const existing = readKeyFile(file);
  const keyFile = existing ?? newKeyFile({ facetId: null, attestation: "basic_surrogate" });
  const facetId = keyFile.facetId ?? link.origin;
  const authenticator = new SoftwareUafAuthenticator({ ...keyFile.authenticator, facetId });
  const keyName = typeof values["key-name"] === "string" ? values["key-name"] : undefined;
  // With --json, stdout carries only the result document; what the request asks goes to stderr.
  const out = json ? process.stderr : process.stdout;

  let result: HandleResult;
  try {
    result = await handleAppLink(authenticator, payload, {
      timeoutMs: HTTP_TIMEOUT_SECONDS * 1000,
      deviceKeyInfo: {
        ...(keyName !== undefined ? { keyName } : {}),
        deviceOs: os.type().slice(0, 64),
        osVersion: os.release().slice(0, 64),
        model: "Sesame CLI software authenticator",
      },
      confirm: (summary, request) =>
        confirmation(summary, request, { yes: values.yes === true, expected, out, facetId }),
    });
  } catch (error) {
    throw explain(error, link);
  }
  const { request, outcome } = result;
  if (!outcome) throw new AuthenticatorCliError("declined: nothing was sent, the request stays pending");

  // Only an accepted answer changes the key file: a refused REG leaves no orphaned key behind.
  const ok = outcome.status === "OK";
  if (ok) {
    writeKeyFile(file, { format: FILE_FORMAT, facetId, authenticator: withoutFacetId(authenticator.state) });
  }
  if (json) {
    printJson({
      request: {
        id: request.id,
        operation: request.operation,
        username: request.username,
        relyingParty: request.relyingParty,
        validUntil: request.validUntil,
        ...(result.summary.transactionText !== undefined
          ? { transaction: result.summary.transactionText }
          : {}),
      },
      outcome: { status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}) },
      ...(result.removed !== undefined ? { removed: result.removed } : {}),
      file,
      saved: ok,
    });
  }
  if (!ok) {
    const error = outcome.error;
    throw new AuthenticatorCliError(
      `the server did not accept the answer: ${outcome.status}` +
        (error ? ` (UAF status ${error.code}: ${printable(error.reason)})` : ""),
    );
  }
  if (!json) {
    process.stdout.write(
      `${printable(outcomeLine(result, keyName))}\n${existing ? "Saved" : "Created"} ${file}${
        keyFile.facetId === null ? ` (FacetID ${facetId}, from the link)` : ""
      }\n`,
    );
  }
}

const SCAN_USAGE = "<link|-> [--file <path>] [--yes] [--key-name <name>] [--json]";

export const authenticatorScan: Command = {
  name: "authenticator scan",
  usage: `authenticator scan ${SCAN_USAGE}`,
  description:
    "Answer the request behind a QR code's link (…/v1/uaf/app/requests/<id>?token=…; - reads it from stdin): " +
    "REG registers a key, AUTH signs (showing any transaction), DEREG removes keys. Asks first unless --yes; " +
    "exit code 0 only when the server answers OK.",
  options: SCAN_OPTIONS,
  run: (input) => answer(input),
};

export const authenticatorRegister: Command = {
  name: "authenticator register",
  usage: `authenticator register ${SCAN_USAGE}`,
  description: "authenticator scan, refusing any link that is not a REG request.",
  options: SCAN_OPTIONS,
  run: (input) => answer(input, "REG"),
};

export const authenticatorAuthenticate: Command = {
  name: "authenticator authenticate",
  usage: `authenticator authenticate ${SCAN_USAGE}`,
  description: "authenticator scan, refusing any link that is not an AUTH request.",
  options: SCAN_OPTIONS,
  run: (input) => answer(input, "AUTH"),
};

export const authenticatorDeregister: Command = {
  name: "authenticator deregister",
  usage: `authenticator deregister ${SCAN_USAGE}`,
  description: "authenticator scan, refusing any link that is not a DEREG request.",
  options: SCAN_OPTIONS,
  run: (input) => answer(input, "DEREG"),
};

export const authenticatorList: Command = {
  name: "authenticator list",
  usage: "authenticator list [--file <path>] [--json]",
  description: "List the keys in the authenticator's key file (never the private keys).",
  options: { file: { type: "string" } },
  async run({ values, json }) {
    const file = fileOf(values);
    const { facetId, authenticator } = requireKeyFile(file);
    const keys = authenticator.keys.map((key) => ({
      appID: key.appID,
      username: key.username,
      keyId: key.keyId,
      signCounter: key.signCounter,
      regCounter: key.regCounter,
      createdAt: key.createdAt,
    }));
    if (json) {
      return printJson({
        file,
        aaid: authenticator.aaid,
        facetId,
        attestation: authenticator.attestation.type,
        keys,
      });
    }
    process.stdout.write(
      `${file}: AAID ${authenticator.aaid}, ${ATTESTATION_TEXT[authenticator.attestation.type]} attestation, ` +
        `FacetID ${facetId ?? "(the first link's origin)"}\n`,
    );
    printTable(
      keys.map((key) => ({
        appID: key.appID,
        username: key.username,
        keyId: `${key.keyId.slice(0, 12)}…`,
        signCounter: key.signCounter,
        created: key.createdAt,
      })),
    );
  },
};

export const authenticatorRoot: Command = {
  name: "authenticator root",
  usage: "authenticator root [--file <path>] [--json]",
  description:
    "Print the attestation root certificate (PEM) of a full-attestation authenticator, for tenant --uaf-trusted-root.",
  options: { file: { type: "string" } },
  async run({ values, json }) {
    const file = fileOf(values);
    const rootPem = rootPemOf(requireKeyFile(file));
    if (!rootPem) {
      throw new AuthenticatorCliError(
        `${file} uses basic surrogate attestation: there is no root (init --attestation full makes one)`,
      );
    }
    if (json) return printJson({ file, attestationRootPem: rootPem });
    process.stdout.write(rootPem.endsWith("\n") ? rootPem : `${rootPem}\n`);
  },
};

export const AUTHENTICATOR_COMMANDS: Command[] = [
  authenticatorInit,
  authenticatorScan,
  authenticatorRegister,
  authenticatorAuthenticate,
  authenticatorDeregister,
  authenticatorList,
  authenticatorRoot,
];
