import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ELEMENTS_DECLARATIONS, elementsDeclarations } from "@/scripts/lib/elements-declarations";

describe("elements/sesame-elements.d.ts", () => {
  it("is what scripts/elements-declarations.ts generates from elements/src (run it after changing the API)", async () => {
    expect(fs.readFileSync(ELEMENTS_DECLARATIONS, "utf8")).toBe(await elementsDeclarations());
  });

  it("carries every field of the source's session claims", () => {
    const declarations = fs.readFileSync(ELEMENTS_DECLARATIONS, "utf8");
    const claims = declarations.slice(declarations.indexOf("interface SessionClaims"));
    for (const field of ["issued_at?: string", "audience?: string[]", "issuer?: string"]) {
      expect(claims).toContain(field);
    }
  });
});
