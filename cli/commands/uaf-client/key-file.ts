import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import {
  createSoftwareAuthenticatorState,
  softwareAuthenticatorStateSchema,
  type SoftwareAuthenticatorState,
} from "@/lib/ceremonies/uaf";
import { UsageError } from "../../output";
import type { CommandInput } from "../command";
import { UafClientCliError } from "./texts";

export const FILE_FORMAT = "sesame-cli-authenticator/1";
const FILE_NAME = "authenticator.json";

/** The key file: the authenticator's state, with its FacetID kept apart so the first link can set it. */
const keyFileSchema = z.object({
  format: z.literal(FILE_FORMAT),
  /** The FacetID this "app" claims; null until the first answered link sets it to that link's origin. */
  facetId: z.string().min(1).nullable(),
  authenticator: softwareAuthenticatorStateSchema.omit({ facetId: true }),
});
type KeyFile = z.infer<typeof keyFileSchema>;

/** `$SESAME_DATA_DIR/authenticator.json`, i.e. `./.data/authenticator.json` by default. */
export function defaultKeyFile(): string {
  return path.resolve(process.env.SESAME_DATA_DIR || "./.data", FILE_NAME);
}

export function fileOf(values: CommandInput["values"]): string {
  return typeof values.file === "string" ? path.resolve(values.file) : defaultKeyFile();
}

export function readKeyFile(file: string): KeyFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UafClientCliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UafClientCliError(`${file} is not JSON; is it an authenticator key file?`);
  }
  const result = keyFileSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new UafClientCliError(
      `${file} is not a Sesame authenticator key file (${issue?.path.join(".") || "format"}: ${issue?.message})`,
    );
  }
  return result.data;
}

export function requireKeyFile(file: string): KeyFile {
  const keyFile = readKeyFile(file);
  if (!keyFile) {
    throw new UafClientCliError(
      `no authenticator key file at ${file}: run authenticator init, or scan a link (which creates it)`,
    );
  }
  return keyFile;
}

/** Written to a temporary file first and renamed, so a crash never leaves half a key file. */
export function writeKeyFile(file: string, keyFile: KeyFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(keyFile, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

export function newKeyFile(options: {
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

export function withoutFacetId(state: SoftwareAuthenticatorState): KeyFile["authenticator"] {
  const { facetId: _facetId, ...rest } = state;
  return rest;
}

export function attestationOf(value: unknown): "basic_surrogate" | "basic_full" {
  if (value === undefined || value === "surrogate" || value === "basic_surrogate") return "basic_surrogate";
  if (value === "full" || value === "basic_full") return "basic_full";
  throw new UsageError("--attestation must be surrogate or full");
}

export const rootPemOf = (keyFile: KeyFile) =>
  keyFile.authenticator.attestation.type === "basic_full"
    ? keyFile.authenticator.attestation.rootPem
    : undefined;
