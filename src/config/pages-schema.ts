import * as z from "zod";
import { onOff } from "./schema-helpers.ts";

// authd's own web pages (sign-in, sign-up, password reset, mailed-link landings) in the configuration
// schema (schema.ts): where they live, their language and their branding (docs/pages.md).

/** A path of its own under the origin: /name or /a/b, no trailing slash, nothing a URL would read as more. */
const PAGE_BASE_PATH = /^(\/[A-Za-z0-9._~-]+)+$/;
/** #rgb or #rrggbb: a colour the theme's CSS takes as is, and nothing that could end the declaration. */
const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** The languages of the pages and mails (ui/shared/messages has a catalogue for each). */
export const LANGUAGES = ["en", "de"] as const;

export const pagesFields = () => ({
  console: z
    .object({
      enabled: onOff
        .default(true)
        .describe("the web admin console under /console (admins only; served while the pages are on)"),
    })
    .prefault({}),
  pages: z
    .object({
      enabled: onOff.default(true).describe("authd's own sign-in and account pages"),
      basePath: z
        .string()
        .regex(PAGE_BASE_PATH, "a path such as /account (letters, digits, . _ ~ -; no trailing slash)")
        .default("/account")
        .describe("path the pages are served under"),
      defaultLanguage: z
        .enum(LANGUAGES)
        .default("en")
        .describe("language of pages for browsers that ask for none authd has"),
      logoURL: z
        .url({ protocol: /^https?$/ })
        .optional()
        .describe("logo shown above every page (an https URL, or a path of the daemon)"),
      primaryColor: z
        .string()
        .regex(HEX_COLOUR, "a colour as #rgb or #rrggbb")
        .default("#2f5bd3")
        .describe("colour of buttons and links"),
      colorScheme: z.enum(["auto", "light", "dark"]).default("auto").describe("light, dark, or the browser's choice"),
      cssFile: z
        .string()
        .min(1)
        .optional()
        .describe("a CSS file of the operator's, served after authd's own (docs/pages.md lists its hooks)"),
    })
    .prefault({}),
});
