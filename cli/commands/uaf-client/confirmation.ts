import { createInterface } from "node:readline/promises";
import type { AppRequest } from "@/lib/uaf-client";
import type { RequestSummary } from "@/lib/ceremonies/uaf";
import { article, UafClientCliError, printable, type Operation } from "./texts";

/** Shows the request, then asks on a terminal; without one only --yes lets it answer. */
export async function confirmation(
  summary: RequestSummary,
  request: AppRequest,
  options: { yes: boolean; expected: Operation | undefined; out: NodeJS.WritableStream; facetId: string },
): Promise<boolean> {
  if (options.expected && request.operation !== options.expected) {
    throw new UafClientCliError(
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
    throw new UafClientCliError(
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
