import os from "node:os";
import { handleAppLink, parseAppLink, type AppLink, type HandleResult } from "@/lib/uaf-client";
import { SoftwareUafAuthenticator } from "@/lib/ceremonies/uaf";
import { printJson, UsageError } from "../../output";
import type { CommandInput } from "../command";
import { confirmation } from "./confirmation";
import { fileOf, FILE_FORMAT, newKeyFile, readKeyFile, withoutFacetId, writeKeyFile } from "./key-file";
import {
  UafClientCliError,
  explain,
  HTTP_TIMEOUT_SECONDS,
  outcomeLine,
  printable,
  type Operation,
} from "./texts";

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

/** Answers the request behind a link (`scan`), or only a request of the operation `expected`. */
export async function answer(
  { values, positionals, json }: CommandInput,
  expected?: Operation,
): Promise<void> {
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
  if (!outcome) throw new UafClientCliError("declined: nothing was sent, the request stays pending");

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
    throw new UafClientCliError(
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
