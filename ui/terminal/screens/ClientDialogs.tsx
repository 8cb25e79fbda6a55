import { Box, Text } from "ink";
import type { NewClientInput, OAuthClientWire } from "../../data.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { Steps } from "./Dialogs.tsx";

// The OpenID clients screens' dialogs: registering a client (the choices `authd clients add` takes most
// often) and the one showing a secret, which stays until the operator says they have copied it.

type IdTokenAlgorithm = OAuthClientWire["id_token_signed_response_alg"];
const ALGORITHMS: IdTokenAlgorithm[] = ["RS256", "ES256", "EdDSA"];

export const clientType = (client: OAuthClientWire): "public" | "confidential" =>
  client.token_endpoint_auth_method === "none" ? "public" : "confidential";

/** A secret just made: its client and the secret, until the operator dismisses it. */
export interface ShownSecret {
  title: string;
  clientId: string;
  secret: string;
}

/** What the registration dialog asks; the service checks the URIs (INVALID_OAUTH_CLIENT names the problem). */
export function CreateClientDialog({
  onCreate,
  onCancel,
}: {
  onCreate: (input: NewClientInput) => void;
  onCancel: () => void;
}) {
  return (
    <Steps<NewClientInput>
      onCancel={onCancel}
      onDone={onCreate}
      steps={[
        {
          label: "client name:",
          placeholder: "the name users see on the consent page · esc cancels",
          read: (text) => (text ? { value: { name: text } } : { error: "expected a name" }),
        },
        {
          label: "redirect URIs:",
          placeholder: "where codes are sent, exactly; several separated by spaces",
          read: (text) => {
            const uris = text.split(/\s+/).filter((uri) => uri !== "");
            return uris.length > 0 ? { value: { redirectURIs: uris } } : { error: "expected at least one URI" };
          },
        },
        {
          label: "type:",
          placeholder: "confidential (a server, with a secret) or public (PKCE, no secret) · enter: confidential",
          read: (text) => {
            const answer = text.toLowerCase();
            if (["", "c", "confidential"].includes(answer)) return { value: { isPublic: false } };
            if (["p", "public"].includes(answer)) return { value: { isPublic: true } };
            return { error: "expected confidential or public" };
          },
        },
        {
          label: "ID token algorithm:",
          placeholder: "RS256, ES256 or EdDSA · enter: RS256",
          read: (text) => {
            if (!text) return { value: { idTokenAlg: "RS256" } };
            const algorithm = ALGORITHMS.find((each) => each.toLowerCase() === text.toLowerCase());
            return algorithm ? { value: { idTokenAlg: algorithm } } : { error: "expected RS256, ES256 or EdDSA" };
          },
        },
      ]}
    />
  );
}

/** A client's secret, shown this once: it holds the keyboard until enter or esc says it was copied. */
export function SecretDialog({
  title,
  clientId,
  secret,
  onDismiss,
}: {
  title: string;
  clientId: string;
  secret: string;
  onDismiss: () => void;
}) {
  useKeys((_input, key) => {
    if (key.return || key.escape) onDismiss();
  });
  return (
    <Box borderStyle="round" borderColor="green" flexDirection="column" paddingX={1}>
      <Text color="green">{`${title}: the client secret is shown once, copy it now`}</Text>
      <Text>{`client_id:     ${clientId}`}</Text>
      <Text>
        {"client_secret: "}
        <Text bold>{secret}</Text>
      </Text>
      <Text dimColor>authd keeps only its digest: a lost secret can only be replaced (s on the client's screen)</Text>
      <Text>
        <Text color="cyan" bold>
          enter
        </Text>
        <Text dimColor> I have copied it</Text>
      </Text>
    </Box>
  );
}
