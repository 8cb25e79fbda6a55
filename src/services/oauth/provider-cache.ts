import type { JWKSCache } from "../../crypto/jwt.ts";
import type { ProviderEndpoints } from "./types.ts";

// What authd learns about providers and keeps for the life of a context: discovery documents change
// rarely, so one successful fetch per issuer is enough (a failed one is forgotten, and the next request
// tries again); JWKS are kept per URL (jose refetches them when a provider rotates its keys).

export interface ProviderCache {
  discovery: Map<string, Promise<Partial<ProviderEndpoints>>>;
  keySets: JWKSCache;
}

export function createProviderCache(): ProviderCache {
  return { discovery: new Map(), keySets: new Map() };
}
