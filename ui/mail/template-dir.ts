import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isMailKind, MAIL_KINDS, type MailKind } from "../../src/wire/mail.ts";
import { isLocale, LOCALES, type Locale } from "../shared/messages/index.ts";
import { type ParsedTemplate, parseTemplate, TemplateProblem } from "./template-format.ts";

// The operator's templates (AUTH_MAIL_TEMPLATES=<dir>): one file per mail and language, named
// <mail>.<language>.md (verify-email.de.md). Every file is read and parsed once, when `serve` starts or
// `config check` runs; any problem is one line naming the file, and authd refuses to start (exit 2) rather
// than fall back to its own template without saying so. Files whose names start with a dot are skipped.

export interface MailTemplates {
  /** The templates by `${mail}.${language}`. */
  templates: ReadonlyMap<string, ParsedTemplate>;
  /** One line per file that cannot be used, naming it; empty when all are good. */
  problems: string[];
}

const SETTING = "AUTH_MAIL_TEMPLATES";
const FILE_NAME = /^([a-z0-9-]+)\.([a-z]{2,3})\.md$/;

export const templateKey = (kind: MailKind, locale: Locale) => `${kind}.${locale}`;

function readTemplate(path: string, name: string): { key: string; template: ParsedTemplate } | string {
  const match = FILE_NAME.exec(name);
  if (!match)
    return `${path}: not a template's name; name each file <mail>.<language>.md, e.g. verify-email.de.md (docs/mail.md)`;
  const [, kind, language] = match;
  if (!isMailKind(kind)) return `${path}: no mail is called ${kind} (the mails: ${MAIL_KINDS.join(", ")})`;
  if (!isLocale(language)) return `${path}: authd has no language ${language} (it has ${LOCALES.join(", ")})`;
  let source: string;
  try {
    source = readFileSync(path, "utf8");
  } catch (error) {
    return `${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  try {
    return { key: templateKey(kind, language), template: parseTemplate(source, kind) };
  } catch (error) {
    if (error instanceof TemplateProblem) return `${path}: ${error.message}`;
    throw error;
  }
}

/** Read and parse every template in `dir`. */
export function readMailTemplates(dir: string): MailTemplates {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return {
      templates: new Map(),
      problems: [`${SETTING}: cannot read the directory ${dir} (${reason}); point it at your templates or unset it`],
    };
  }
  const templates = new Map<string, ParsedTemplate>();
  const problems: string[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const read = readTemplate(join(dir, name), name);
    if (typeof read === "string") problems.push(`${SETTING}: ${read}`);
    else templates.set(read.key, read.template);
  }
  return { templates, problems };
}

// Read once per process and directory: `serve` reads them at start (and refuses problems), and the mails
// it sends later use what it read then, whatever happens to the files meanwhile.
const read = new Map<string, MailTemplates>();

export function loadMailTemplates(dir: string): MailTemplates {
  let loaded = read.get(dir);
  if (!loaded) {
    loaded = readMailTemplates(dir);
    read.set(dir, loaded);
  }
  return loaded;
}

/** The problems of the configured directory (none without one): `serve` and `config check` refuse them. */
export function mailTemplateProblems(dir: string | undefined): string[] {
  return dir ? loadMailTemplates(dir).problems : [];
}
