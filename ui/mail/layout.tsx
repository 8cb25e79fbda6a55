import type { CSSProperties, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { directionOf, type Locale, type Translate } from "../shared/messages/index.ts";
import type { MailBlock, MailBranding, MailDocument } from "./document.ts";

// The HTML part: React components drawn once to static markup, written for mail clients rather than
// browsers. Layout is tables (Outlook's Word engine ignores most of CSS), every style is inline (many clients
// drop <style>), nothing is loaded from elsewhere but the operator's logo, and there is no script. Every value
// is text to React, so a name like <img src=x onerror=…> arrives as those characters, escaped.

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const TEXT = "#1b1f29";
const MUTED = "#4a5263";
const BACKGROUND = "#f4f5f8";

/** Black or white, whichever reads better on the button's colour (WCAG relative luminance). */
export function textColourOn(hex: string): string {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d).join("") : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = Number.parseInt(digits.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? "#000000" : "#ffffff";
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

const paragraph: CSSProperties = { margin: "0 0 16px", fontSize: "16px", lineHeight: "24px", color: TEXT };

/** Text with its line breaks kept. */
function Lines({ text }: { text: string }) {
  const lines = text.split("\n");
  return (
    <>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a fixed text, never reordered
        <span key={index}>
          {index > 0 ? <br /> : null}
          {line}
        </span>
      ))}
    </>
  );
}

function Button({ label, href, colour }: { label: string; href: string; colour: string }) {
  const text = textColourOn(colour);
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ margin: "8px 0 24px" }}>
      <tbody>
        <tr>
          <td style={{ backgroundColor: colour, borderRadius: "6px" }}>
            <a
              href={href}
              style={{
                display: "inline-block",
                padding: "12px 24px",
                fontFamily: FONT,
                fontSize: "16px",
                fontWeight: 600,
                color: text,
                textDecoration: "none",
                borderRadius: "6px",
              }}
            >
              {label}
            </a>
          </td>
        </tr>
      </tbody>
    </table>
  );
}

function Block({ block, branding, t }: { block: MailBlock; branding: MailBranding; t: Translate }) {
  switch (block.type) {
    case "paragraph":
      return (
        <p style={paragraph}>
          <Lines text={block.text} />
        </p>
      );
    case "button":
      return (
        <>
          <Button label={block.label} href={block.href} colour={branding.primaryColor} />
          <p style={{ ...paragraph, fontSize: "13px", lineHeight: "20px", color: MUTED }}>
            {t("mail.buttonFallback")}
            <br />
            <a href={block.href} style={{ color: MUTED, wordBreak: "break-all" }}>
              {block.href}
            </a>
          </p>
        </>
      );
    case "code":
      return (
        <p
          style={{
            margin: "8px 0 24px",
            padding: "12px 16px",
            display: "inline-block",
            backgroundColor: BACKGROUND,
            borderRadius: "6px",
            fontFamily: "'SFMono-Regular', Consolas, 'Liberation Mono', Menlo, monospace",
            fontSize: "28px",
            lineHeight: "36px",
            letterSpacing: "6px",
            color: TEXT,
          }}
        >
          {block.code}
        </p>
      );
    case "note":
      return (
        <p style={{ ...paragraph, fontSize: "14px", lineHeight: "21px", color: MUTED }}>
          <Lines text={block.text} />
        </p>
      );
  }
}

function Brand({ branding }: { branding: MailBranding }) {
  if (branding.logoURL)
    return (
      // fetchPriority="low" keeps React from adding a <link rel="preload"> for it: a mail has no <head> to load.
      <img
        src={branding.logoURL}
        fetchPriority="low"
        alt={branding.appName}
        height={40}
        style={{ display: "block", height: "40px", maxWidth: "240px", border: 0 }}
      />
    );
  return <span style={{ fontSize: "20px", fontWeight: 700, color: TEXT }}>{branding.appName}</span>;
}

function Frame({ children, footer }: { children: ReactNode; footer: string }) {
  return (
    <table
      role="presentation"
      width="100%"
      cellPadding={0}
      cellSpacing={0}
      style={{ backgroundColor: BACKGROUND, fontFamily: FONT }}
    >
      <tbody>
        <tr>
          <td align="center" style={{ padding: "24px 12px" }}>
            <table
              role="presentation"
              width="100%"
              cellPadding={0}
              cellSpacing={0}
              style={{ maxWidth: "560px", backgroundColor: "#ffffff", borderRadius: "10px" }}
            >
              <tbody>{children}</tbody>
            </table>
            <p style={{ margin: "16px 0 0", fontSize: "12px", lineHeight: "18px", color: MUTED, maxWidth: "560px" }}>
              {footer}
            </p>
          </td>
        </tr>
      </tbody>
    </table>
  );
}

export interface HtmlPartOptions {
  document: MailDocument;
  branding: MailBranding;
  locale: Locale;
  t: Translate;
  footer: string;
}

/** The whole HTML part, from the doctype on. */
export function renderHtmlPart({ document, branding, locale, t, footer }: HtmlPartOptions): string {
  const body = renderToStaticMarkup(
    <Frame footer={footer}>
      <tr>
        <td style={{ padding: "24px 32px 8px", textAlign: "start" }}>
          <Brand branding={branding} />
        </td>
      </tr>
      <tr>
        <td style={{ padding: "16px 32px 16px", textAlign: "start" }}>
          {document.blocks.map((block, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a mail's blocks, drawn once in their order
            <Block key={index} block={block} branding={branding} t={t} />
          ))}
        </td>
      </tr>
    </Frame>,
  );
  const title = document.subject.replace(/[&<>"]/g, (ch) => ESCAPES[ch] as string);
  const dir = directionOf(locale);
  return `<!DOCTYPE html><html lang="${locale}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light"><title>${title}</title></head><body style="margin:0;padding:0;background-color:${BACKGROUND}">${body}</body></html>`;
}
