import { AAID_PATTERN } from "@/lib/ceremonies/uaf";
import { printJson, printTable, UsageError } from "../../output";
import type { Command } from "../command";
import { answer } from "./answer";
import {
  attestationOf,
  fileOf,
  newKeyFile,
  readKeyFile,
  requireKeyFile,
  rootPemOf,
  writeKeyFile,
} from "./key-file";
import { ATTESTATION_TEXT, UafClientCliError } from "./texts";

/**
 * `sesame authenticator …`: the phone app of the out-of-band flow, on the command line. It reads the
 * link a QR code holds, shows what the request asks, answers it with a software UAF authenticator and
 * keeps that authenticator's keys in a local JSON file (mode 0600; it holds private keys). It speaks
 * HTTP only, to the origin in the link: these commands never open Sesame's database, so they work
 * next to a running server and against any Sesame instance.
 *
 * This file holds the commands; beside it: key-file.ts (the key file), answer.ts (scan and its
 * operation-bound forms), confirmation.ts (what the request asks, and the y/N prompt) and texts.ts (the
 * error, the explanation of every failure and the outcome lines).
 */

export const uafClientInit: Command = {
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
      throw new UafClientCliError(`${file} already exists; --force replaces it (its keys are lost)`);
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

const SCAN_USAGE = "<link|-> [--file <path>] [--yes] [--key-name <name>] [--json]";

export const uafClientScan: Command = {
  name: "authenticator scan",
  usage: `authenticator scan ${SCAN_USAGE}`,
  description:
    "Answer the request behind a QR code's link (…/v1/uaf/app/requests/<id>?token=…; - reads it from stdin): " +
    "REG registers a key, AUTH signs (showing any transaction), DEREG removes keys. Asks first unless --yes; " +
    "exit code 0 only when the server answers OK.",
  options: SCAN_OPTIONS,
  run: (input) => answer(input),
};

export const uafClientRegister: Command = {
  name: "authenticator register",
  usage: `authenticator register ${SCAN_USAGE}`,
  description: "authenticator scan, refusing any link that is not a REG request.",
  options: SCAN_OPTIONS,
  run: (input) => answer(input, "REG"),
};

export const uafClientAuthenticate: Command = {
  name: "authenticator authenticate",
  usage: `authenticator authenticate ${SCAN_USAGE}`,
  description: "authenticator scan, refusing any link that is not an AUTH request.",
  options: SCAN_OPTIONS,
  run: (input) => answer(input, "AUTH"),
};

export const uafClientDeregister: Command = {
  name: "authenticator deregister",
  usage: `authenticator deregister ${SCAN_USAGE}`,
  description: "authenticator scan, refusing any link that is not a DEREG request.",
  options: SCAN_OPTIONS,
  run: (input) => answer(input, "DEREG"),
};

export const uafClientList: Command = {
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

export const uafClientRoot: Command = {
  name: "authenticator root",
  usage: "authenticator root [--file <path>] [--json]",
  description:
    "Print the attestation root certificate (PEM) of a full-attestation authenticator, for tenant --uaf-trusted-root.",
  options: { file: { type: "string" } },
  async run({ values, json }) {
    const file = fileOf(values);
    const rootPem = rootPemOf(requireKeyFile(file));
    if (!rootPem) {
      throw new UafClientCliError(
        `${file} uses basic surrogate attestation: there is no root (init --attestation full makes one)`,
      );
    }
    if (json) return printJson({ file, attestationRootPem: rootPem });
    process.stdout.write(rootPem.endsWith("\n") ? rootPem : `${rootPem}\n`);
  },
};

export const UAF_CLIENT_COMMANDS: Command[] = [
  uafClientInit,
  uafClientScan,
  uafClientRegister,
  uafClientAuthenticate,
  uafClientDeregister,
  uafClientList,
  uafClientRoot,
];
