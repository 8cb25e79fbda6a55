// The few parts of `oidc-provider` (a test-only dependency without bundled types) the tests use.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface ClientLike {
    grantTypeAllowed(grant: string): boolean;
  }

  interface AccountLike {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  export interface Configuration {
    clients?: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    issueRefreshToken?: (ctx: unknown, client: ClientLike, code: unknown) => Promise<boolean>;
    ttl?: Record<string, number>;
    cookies?: { keys: string[] };
    findAccount?: (ctx: unknown, sub: string) => Promise<AccountLike | undefined>;
    [option: string]: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
