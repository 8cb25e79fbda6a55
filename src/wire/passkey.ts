import * as z from "zod";
import { IsoDateSchema } from "./common.ts";

/**
 * A passkey as Better Auth answers it: every column, in its key order. publicKey is the COSE key in
 * standard base64 (public, not a secret); transports is comma-joined; aaguid names the authenticator model.
 */
export const PasskeySchema = z
  .object({
    name: z.string().nullable(),
    publicKey: z.string(),
    userId: z.string(),
    credentialID: z.string(),
    counter: z.number().int(),
    deviceType: z.enum(["singleDevice", "multiDevice"]),
    backedUp: z.boolean(),
    transports: z.string().nullable(),
    createdAt: IsoDateSchema.nullable(),
    aaguid: z.string().nullable(),
    id: z.string(),
  })
  .meta({ id: "Passkey" });
export type Passkey = z.output<typeof PasskeySchema>;
