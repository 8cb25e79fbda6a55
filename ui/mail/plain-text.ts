import type { MailBlock, MailDocument } from "./document.ts";

// The plain-text part, drawn from the same document as the HTML part: paragraphs apart by a blank line, and
// the link and the code each alone on a line, so a reader (or a script) finds them at once. Values stay
// the characters they are: plain text is never read as markup.

function blockText(block: MailBlock): string {
  switch (block.type) {
    case "paragraph":
    case "note":
      return block.text;
    case "button":
      return `${block.label}:\n${block.href}`;
    case "code":
      return block.code;
  }
}

export function renderTextPart(document: MailDocument, footer: string): string {
  const body = document.blocks.map(blockText).join("\n\n");
  return `${body}\n\n-- \n${footer}\n`;
}
