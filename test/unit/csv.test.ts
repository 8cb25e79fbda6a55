import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "../../src/services/csv.ts";

// CSV cells a spreadsheet opens as text: formulas made inert (OWASP's CSV injection advice), RFC 4180 quoting.

describe("csv cells", () => {
  it("prefixes text a spreadsheet would run as a formula with an apostrophe", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("\r=1")).toBe('"\'\r=1"');
    expect(csvCell("a=1")).toBe("a=1");
  });

  it("quotes cells holding a comma, a quote or a line break, doubling the quotes", () => {
    expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell("plain")).toBe("plain");
  });

  it("writes nothing for null and undefined, and numbers and booleans as their text", () => {
    expect(csvRow([null, undefined, 3, true, ""])).toBe(",,3,true,");
  });
});
