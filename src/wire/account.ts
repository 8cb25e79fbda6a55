import * as z from "zod";
import { IsoDateSchema } from "./common.ts";

/** A linked account (list-accounts): the password account (provider "credential") or a social one. No secret. */
export const LinkedAccountSchema = z
  .object({
    id: z.string(),
    provider: z.string(),
    accountId: z.string(),
    scopes: z.array(z.string()),
    createdAt: IsoDateSchema,
    updatedAt: IsoDateSchema,
  })
  .meta({ id: "LinkedAccount" });
export type LinkedAccount = z.output<typeof LinkedAccountSchema>;
