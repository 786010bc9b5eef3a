import { BadRequest } from "@/lib/errors";

export interface ClientData {
  type: unknown;
  challenge: string;
  origin: unknown;
  crossOrigin?: unknown;
}

/**
 * Reads the challenge out of a response's clientDataJSON (base64url of UTF-8 JSON, an optional BOM
 * stripped), so the stored ceremony can be found. Everything else is checked by the verification.
 */
export function readClientData(clientDataJSON: string, title: string): ClientData {
  try {
    const text = Buffer.from(clientDataJSON, "base64url")
      .toString("utf8")
      .replace(/^\uFEFF/, "");
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && typeof (parsed as ClientData).challenge === "string") {
      return parsed as ClientData;
    }
  } catch {
    // answered below
  }
  throw new BadRequest(title, {
    details: ["response.clientDataJSON is not base64url JSON with a challenge"],
  });
}
