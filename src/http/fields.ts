import * as z from "zod";
import { controlCharacterPath, hasControlCharacters } from "../services/control-characters.ts";

// The string fields of route inputs. Every string a client sends that reaches the database (names,
// ids, tokens, slugs, URLs, metadata) goes through one of these, so a NUL or another control character
// is a 400 on every dialect instead of a 500 on Postgres. Passwords are exempt: they are only hashed.

export const CONTROL_CHARACTER_MESSAGE = "must not contain control characters";

/** A one-line string (names, ids, tokens, slugs, URLs): no control character at all. */
export const singleLine = () =>
  z.string().refine((value) => !hasControlCharacters(value), { message: CONTROL_CHARACTER_MESSAGE });

/** A one-line string from a form or a number ("42" for 42), for ids some clients send as numbers. */
export const coercedSingleLine = () =>
  z.coerce.string().refine((value) => !hasControlCharacters(value), { message: CONTROL_CHARACTER_MESSAGE });

/** Free text (a ban reason): tab, line feed and carriage return allowed, other control characters not. */
export const freeText = () =>
  z
    .string()
    .refine((value) => !hasControlCharacters(value, { allowWhitespace: true }), { message: CONTROL_CHARACTER_MESSAGE });

/** Any JSON value (metadata, extra fields): keys one-line, string values free text, at any depth. */
export const jsonValue = () =>
  z.unknown().superRefine((value, issues) => {
    const path = controlCharacterPath(value);
    if (path) issues.addIssue({ code: "custom", message: CONTROL_CHARACTER_MESSAGE, path });
  });

/** A JSON object (organization metadata, admin create-user data). */
export const jsonObject = () => z.record(singleLine(), jsonValue());

/** resource → actions, as API keys, roles and permission checks take them. */
export const permissionMap = () => z.record(singleLine(), z.array(singleLine()));
