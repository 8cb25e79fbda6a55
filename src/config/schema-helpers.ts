import * as z from "zod";

// What the sections of the configuration schema (schema.ts) share.

export const onOff = z.boolean();
// An HTTP header name (RFC 9110 token characters).
export const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
export const seconds = (def: number, description: string) => z.number().int().min(0).default(def).describe(description);
