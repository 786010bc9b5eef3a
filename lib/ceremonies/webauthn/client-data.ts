import { AppError } from "@/lib/errors";

export interface ClientData {
  type: unknown;
  challenge: string;
  origin: unknown;
  crossOrigin?: unknown;
  topOrigin?: unknown;
}

/**
 * True when the ceremony ran in a cross-origin iframe (`crossOrigin` true, or a `topOrigin` given):
 * no tenant embeds ceremonies, so these are refused (WebAuthn §7.1 steps 10–11, §7.2 steps 13–14).
 */
export function isEmbedded(clientData: ClientData): boolean {
  return clientData.crossOrigin === true || clientData.topOrigin !== undefined;
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
  throw new AppError("CLIENT_DATA_INVALID", title, {
    details: ["response.clientDataJSON is not base64url JSON with a challenge"],
  });
}
