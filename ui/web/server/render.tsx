import { renderToString } from "react-dom/server";
import { type AnyMessageKey, consoleTranslator } from "../../shared/messages/console.ts";
import { directionOf, type MessageKey, translator } from "../../shared/messages/index.ts";
import { PageApp } from "../app.tsx";
import { isConsolePage } from "../bundles.ts";
import type { ConsolePageName, PageName, PageState } from "../state.ts";

// A page as the server sends it: one HTML document with the page drawn by React, the state the browser
// bundle hydrates it from (a JSON data block, never run as script), and links to the hashed assets. No
// inline script or style anywhere: the pages' Content-Security-Policy forbids both.

export interface DocumentAssets {
  script: string;
  styles: string[];
}

const TITLES: Record<Exclude<PageName, ConsolePageName>, MessageKey> = {
  "sign-in": "page.title.signIn",
  "sign-up": "page.title.signUp",
  "signed-out": "page.title.signedOut",
  "signed-in": "page.title.signedIn",
  "forgot-password": "page.title.forgotPassword",
  "check-mail": "page.title.checkMail",
  "reset-password": "page.title.resetPassword",
  "verify-email": "page.title.verifyEmail",
  "delete-account": "page.title.deleteAccount",
  error: "page.title.error",
  invitation: "page.title.invitation",
  "two-factor": "page.title.twoFactor",
  "magic-link": "page.title.magicLink",
  "email-code": "page.title.emailCode",
  "account-profile": "account.section.profile",
  "account-linked-accounts": "account.section.linkedAccounts",
  "account-api-keys": "account.section.apiKeys",
  "account-organizations": "account.section.organizations",
  "account-activity": "account.section.activity",
  "account-second-factor": "account.section.secondFactor",
  "account-passkeys": "account.section.passkeys",
  "account-password": "account.section.password",
  "account-sessions": "account.section.sessions",
  "account-delete": "account.section.delete",
  "account-reauthenticate": "page.title.reauthenticate",
  "dev-outbox": "page.title.devOutbox",
  "verify-email-code": "page.title.verifyEmailCode",
  consent: "page.title.consent",
};

const escapeText = (value: string) =>
  value.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch] as string);

/** JSON that cannot end its <script> element or open a comment: every <, > and & is a \u escape. */
const jsonForHTML = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);

export function renderDocument(state: PageState, assets: DocumentAssets): string {
  // A console screen is titled by its screen's name in the console's messages.
  const title = `${
    isConsolePage(state)
      ? consoleTranslator(state.locale)(`console.screen.${state.console.screen}` as AnyMessageKey)
      : translator(state.locale)(TITLES[state.page])
  } · ${state.branding.appName}`;
  const body = renderToString(<PageApp state={state} />);
  const styles = assets.styles.map((href) => `<link rel="stylesheet" href="${escapeText(href)}">`).join("");
  return `<!doctype html><html lang="${state.locale}" dir="${directionOf(state.locale)}" data-color-scheme="${state.branding.colorScheme}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="same-origin"><title>${escapeText(title)}</title>${styles}<script type="module" src="${escapeText(assets.script)}"></script></head><body><div id="authd-root">${body}</div><script type="application/json" id="authd-state">${jsonForHTML(state)}</script></body></html>`;
}
