import { statSync } from "node:fs";
import type { Config } from "./schema.ts";

// What the pages' settings can get wrong that their schema cannot see: a base path that overlaps the API's
// (one would shadow the other), and an operator CSS file that is not there. One line each, naming the
// setting and what to change; `serve` and `config check` refuse them (exit 2), so a page never fails at
// its first request instead.

const overlaps = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

export function pagesConfigProblems(config: Config): string[] {
  const { enabled, basePath, cssFile } = config.pages;
  // The OpenID Provider signs people in and asks their consent on the pages.
  if (!enabled)
    return config.oidcProvider.enabled
      ? ["oidcProvider.enabled: the OpenID Provider needs authd's pages for sign-in and consent; turn AUTH_PAGES on"]
      : [];
  const problems: string[] = [];
  if (overlaps(basePath, config.basePath))
    problems.push(
      `pages.basePath: ${basePath} overlaps the API's basePath ${config.basePath}; choose a path of its own such as /account (AUTH_PAGES_BASE_PATH)`,
    );
  if (cssFile) {
    let isFile = false;
    let reason = "not a file";
    try {
      isFile = statSync(cssFile).isFile();
    } catch (error) {
      reason = (error as NodeJS.ErrnoException).code ?? String(error);
    }
    if (!isFile)
      problems.push(`pages.cssFile: cannot read ${cssFile} (${reason}); point it at a CSS file or remove it`);
  }
  return problems;
}
