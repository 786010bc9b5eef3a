import { describe, expect, it } from "vitest";
import { csvField } from "./csv";

describe("csvField", () => {
  it("quotes what a spreadsheet would split (comma, semicolon, tab, line break) and doubles quotes", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line\r\nbreak")).toBe('"line\r\nbreak"');
    // A locale whose list separator is `;` would start a new cell after it: quoted, it stays one cell.
    expect(csvField("Mozilla;=cmd|' /C calc'!A0")).toBe(`"Mozilla;=cmd|' /C calc'!A0"`);
    expect(csvField("a\tb")).toBe('"a\tb"');
    expect(csvField(null)).toBe("");
  });

  it("neutralises cells a spreadsheet would read as a formula", () => {
    for (const start of ["=", "+", "-", "@"]) expect(csvField(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
  });
});
