import type { MailKind } from "../../src/wire/mail.ts";
import type { MailBlock, MailDocument } from "./document.ts";
import { MAIL_VARIABLES, type MailVariables } from "./variables.ts";

// An operator's template for one mail in one language (docs/mail.md, "Your own templates"): a Subject line,
// a blank line, then the body in paragraphs apart by blank lines, with {{variables}}:
//
//   Subject: Confirm your address for {{appName}}
//
//   Hello {{name}},
//
//   [Confirm my address]({{link}})      ← a paragraph that is only a link: the button
//
//   {{#code}}                           ← shown only when the mail has a code
//   Or type this code:
//
//   {{code}}                            ← a paragraph that is only the code: the code, large
//   {{/code}}
//
// It is parsed once, at start: a template that does not parse, names a variable its mail does not have, or
// lacks the link or code its mail exists to carry is refused with the line that is wrong. Values are filled
// in as text after parsing, so nothing a user typed (a name) can open a section, make a button or add markup.

type Segment = { text: string } | { variable: string };

type TemplateBlock =
  | { type: "paragraph"; segments: Segment[] }
  | { type: "button"; label: Segment[]; target: Segment }
  | { type: "code"; variable: string }
  | { type: "section"; variable: string; blocks: TemplateBlock[] };

export interface ParsedTemplate {
  subject: Segment[];
  blocks: TemplateBlock[];
}

export class TemplateProblem extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "TemplateProblem";
  }
}

const VARIABLE = /^[A-Za-z][A-Za-z0-9]*$/;
const SECTION_TAG = /^\{\{\s*([#/])\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}$/;
const BUTTON = /^\[([^\]\n]+)\]\(([^)\s]+)\)$/;
/** Variables that would put the mail's secret where lock screens and mail listings show it. */
const NOT_IN_SUBJECT = new Set(["link", "code"]);

interface Rules {
  kind: MailKind;
  names: ReadonlySet<string>;
  optional: ReadonlySet<string>;
}

function parseSegments(text: string, line: number, rules: Rules): Segment[] {
  const segments: Segment[] = [];
  let rest = text;
  while (rest.length > 0) {
    const open = rest.indexOf("{{");
    const strayClose = rest.indexOf("}}");
    if (strayClose !== -1 && (open === -1 || strayClose < open))
      throw new TemplateProblem(line, "}} without a {{ before it");
    if (open === -1) {
      segments.push({ text: rest });
      break;
    }
    if (open > 0) segments.push({ text: rest.slice(0, open) });
    const close = rest.indexOf("}}", open + 2);
    if (close === -1) throw new TemplateProblem(line, "{{ is not closed by }}");
    const name = rest.slice(open + 2, close).trim();
    if (name.startsWith("#") || name.startsWith("/"))
      throw new TemplateProblem(line, `{{${name}}} must stand on a line of its own`);
    if (!VARIABLE.test(name)) throw new TemplateProblem(line, `{{${name}}} is not a variable name`);
    if (!rules.names.has(name))
      throw new TemplateProblem(
        line,
        `unknown variable {{${name}}} (the ${rules.kind} mail has ${[...rules.names].join(", ")})`,
      );
    segments.push({ variable: name });
    rest = rest.slice(close + 2);
  }
  return segments;
}

function parseParagraph(lines: { text: string; number: number }[], rules: Rules): TemplateBlock {
  const first = lines[0].number;
  const whole = lines.map((l) => l.text).join("\n");
  const button = lines.length === 1 ? BUTTON.exec(whole.trim()) : null;
  if (button) {
    const target = button[2].trim();
    const variable = /^\{\{\s*([A-Za-z0-9]+)\s*\}\}$/.exec(target)?.[1];
    if (variable !== undefined && variable !== "link")
      throw new TemplateProblem(first, `a button goes to {{link}} or an https:// address, not {{${variable}}}`);
    if (variable === undefined && !/^https?:\/\/[^\s{}]+$/.test(target))
      throw new TemplateProblem(first, `a button goes to {{link}} or an https:// address, not ${target}`);
    if (variable === "link" && !rules.names.has("link"))
      throw new TemplateProblem(first, `the ${rules.kind} mail has no {{link}}`);
    return {
      type: "button",
      label: parseSegments(button[1], first, rules),
      target: variable ? { variable } : { text: target },
    };
  }
  const code = /^\{\{\s*(code)\s*\}\}$/.exec(whole.trim())?.[1];
  if (code && rules.names.has(code)) return { type: "code", variable: code };
  const segments = lines.flatMap((line, index) => [
    ...(index > 0 ? [{ text: "\n" }] : []),
    ...parseSegments(line.text, line.number, rules),
  ]);
  return { type: "paragraph", segments };
}

function variablesIn(block: TemplateBlock): string[] {
  const of = (segments: Segment[]) => segments.flatMap((s) => ("variable" in s ? [s.variable] : []));
  switch (block.type) {
    case "paragraph":
      return of(block.segments);
    case "button":
      return [...of(block.label), ...of([block.target])];
    case "code":
      return [block.variable];
    case "section":
      return [];
  }
}

/** The body's blocks, sections nested, from line 3 on. */
function parseBody(lines: string[], rules: Rules): TemplateBlock[] {
  const root: TemplateBlock[] = [];
  const open: { variable: string; line: number; blocks: TemplateBlock[] }[] = [];
  let paragraph: { text: string; number: number }[] = [];
  const target = () => open.at(-1)?.blocks ?? root;
  const endParagraph = () => {
    if (paragraph.length > 0) target().push(parseParagraph(paragraph, rules));
    paragraph = [];
  };
  lines.forEach((text, index) => {
    const number = index + 3;
    const tag = SECTION_TAG.exec(text.trim());
    if (!tag && text.trim() !== "") {
      paragraph.push({ text: text.trimEnd(), number });
      return;
    }
    endParagraph();
    if (!tag) return;
    const [, kind, variable] = tag;
    if (kind === "#") {
      if (!rules.optional.has(variable))
        throw new TemplateProblem(
          number,
          `{{#${variable}}}: only a variable the mail may lack opens a section (${[...rules.optional].join(", ") || "this mail has none"})`,
        );
      open.push({ variable, line: number, blocks: [] });
      return;
    }
    const section = open.pop();
    if (!section || section.variable !== variable)
      throw new TemplateProblem(number, `{{/${variable}}} closes no {{#${variable}}}`);
    target().push({ type: "section", variable, blocks: section.blocks });
  });
  endParagraph();
  const unclosed = open.at(-1);
  if (unclosed)
    throw new TemplateProblem(unclosed.line, `{{#${unclosed.variable}}} is not closed by {{/${unclosed.variable}}}`);
  return root;
}

/** Parse a template file's text for a mail; throws a TemplateProblem naming the line that is wrong. */
export function parseTemplate(source: string, kind: MailKind): ParsedTemplate {
  const { names, optional, required } = MAIL_VARIABLES[kind];
  const rules: Rules = { kind, names: new Set(names), optional: new Set(optional) };
  const lines = source
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  const subjectLine = /^Subject:(.*)$/i.exec(lines[0] ?? "");
  if (!subjectLine || subjectLine[1].trim() === "")
    throw new TemplateProblem(1, "a template starts with its subject: `Subject: …`");
  if ((lines[1] ?? "").trim() !== "")
    throw new TemplateProblem(2, "leave line 2 blank, between the subject and the body");
  const subject = parseSegments(subjectLine[1].trim(), 1, rules);
  for (const segment of subject)
    if ("variable" in segment && NOT_IN_SUBJECT.has(segment.variable))
      throw new TemplateProblem(
        1,
        `{{${segment.variable}}} does not go in the subject (lock screens and mail listings show subjects); put it in the body`,
      );
  const blocks = parseBody(lines.slice(2), rules);
  if (blocks.length === 0) throw new TemplateProblem(3, "the body is empty");
  const shown = new Set(blocks.flatMap(variablesIn));
  for (const variable of required)
    if (!shown.has(variable))
      throw new TemplateProblem(3, `the template lacks {{${variable}}}, which the ${kind} mail exists to carry`);
  for (const variable of optional)
    if (shown.has(variable))
      throw new TemplateProblem(
        3,
        `{{${variable}}} may be empty in the ${kind} mail: show it inside {{#${variable}}} … {{/${variable}}}`,
      );
  return { subject, blocks };
}

function filled(segments: Segment[], values: MailVariables): string {
  return segments.map((s) => ("variable" in s ? (values[s.variable] ?? "") : s.text)).join("");
}

function fillBlock(block: TemplateBlock, values: MailVariables): MailBlock[] {
  switch (block.type) {
    case "paragraph":
      return [{ type: "paragraph", text: filled(block.segments, values) }];
    case "button":
      return [{ type: "button", label: filled(block.label, values), href: filled([block.target], values) }];
    case "code":
      return [{ type: "code", code: values[block.variable] ?? "" }];
    case "section":
      return values[block.variable] ? fillBlocks(block.blocks, values) : [];
  }
}

function fillBlocks(blocks: TemplateBlock[], values: MailVariables): MailBlock[] {
  return blocks.flatMap((block) => fillBlock(block, values));
}

/** A parsed template with one message's values: the document both parts are drawn from. */
export function fillTemplate(template: ParsedTemplate, values: MailVariables): MailDocument {
  return { subject: filled(template.subject, values), blocks: fillBlocks(template.blocks, values) };
}
