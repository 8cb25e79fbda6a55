import { Box, Text } from "ink";
import { useState } from "react";
import type { AdminData, OAuthClientWire } from "../../data.ts";
import { toMinute } from "../../shared/dates.ts";
import { type KeyHint, KeyHints } from "../components/KeyHints.tsx";
import { Confirm } from "../components/Prompt.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { useAction } from "../hooks/use-action.ts";
import { useAsyncData } from "../hooks/use-async-data.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { clientType, SecretDialog, type ShownSecret } from "./ClientDialogs.tsx";
import type { Navigation } from "./navigation.ts";

type Mode = "browse" | "rotate" | "delete";

/** One line of the client's description: a dim name, then the value ("none" when there is none). */
function Field({ name, value }: { name: string; value: string | null | undefined }) {
  return (
    <Text>
      <Text dimColor>{`${name.padEnd(24)} `}</Text>
      {value || "none"}
    </Text>
  );
}

function ClientFields({ client }: { client: OAuthClientWire }) {
  const isPublic = client.token_endpoint_auth_method === "none";
  return (
    <>
      <Text>
        <Text bold>{client.client_name}</Text>
        {"  "}
        <Text dimColor>{client.client_id}</Text>
      </Text>
      <Field
        name="type"
        value={isPublic ? "public (PKCE, no secret)" : "confidential (client_secret_basic or _post)"}
      />
      <Field name="redirect URIs" value={client.redirect_uris.join(" ")} />
      <Field name="post-logout redirect URIs" value={client.post_logout_redirect_uris.join(" ")} />
      <Field name="ID token algorithm" value={client.id_token_signed_response_alg} />
      <Field name="consent" value={client.skip_consent ? "skipped (first-party)" : "asked"} />
      <Field name="back-channel logout URI" value={client.backchannel_logout_uri} />
      <Field name="registered" value={toMinute(client.created_at)} />
    </>
  );
}

/** One OpenID client: what it is registered with; s gives a confidential client a new secret, d deletes it. */
export function ClientDetailScreen({ data, clientId, nav }: { data: AdminData; clientId: string; nav: Navigation }) {
  const found = useAsyncData(() => data.findOAuthClient(clientId), [clientId]);
  const action = useAction(found.reload);
  const [mode, setMode] = useState<Mode>("browse");
  const [shown, setShown] = useState<ShownSecret>();
  const client = found.data;
  const confidential = client ? clientType(client) === "confidential" : false;

  useKeys(
    (input, key) => {
      if (key.escape) return nav.back();
      if (key.tab) return nav.nextTab(key.shift ? -1 : 1);
      if (!client || key.ctrl) return;
      if (input === "s" && confidential) setMode("rotate");
      if (input === "d") setMode("delete");
    },
    { isActive: mode === "browse" && !shown },
  );

  if (!client) {
    return (
      <Box flexDirection="column">
        <StatusLine error={found.error} />
        <Text dimColor>{found.loading ? "loading…" : "this client no longer exists"}</Text>
        <KeyHints hints={[["esc", "back"]]} />
      </Box>
    );
  }

  const hints: KeyHint[] = [
    ...(confidential ? [["s", "new secret"] as KeyHint] : []),
    ["d", "delete"],
    ["tab", "next screen"],
    ["esc", "back"],
  ];
  return (
    <Box flexDirection="column">
      <ClientFields client={client} />
      {mode === "rotate" ? (
        <Confirm
          question={`Give ${client.client_name} a new secret? The old one stops working at once.`}
          onAnswer={(yes) => {
            setMode("browse");
            if (!yes) return;
            void action.run(async () => {
              const rotated = await data.rotateOAuthClientSecret(client.client_id);
              const secret = rotated.client_secret ?? "";
              setShown({ title: `new secret for ${client.client_name}`, clientId: client.client_id, secret });
              return `${client.client_name} has a new secret`;
            });
          }}
        />
      ) : null}
      {mode === "delete" ? (
        <Confirm
          question={`Delete ${client.client_name} with its grants and tokens? Its users can no longer sign in through it.`}
          onAnswer={(yes) => {
            setMode("browse");
            if (!yes) return;
            void action.run(async () => {
              await data.deleteOAuthClient(client.client_id);
              nav.back(`deleted client ${client.client_name}`);
            });
          }}
        />
      ) : null}
      {shown ? <SecretDialog {...shown} onDismiss={() => setShown(undefined)} /> : null}
      <StatusLine error={action.error ?? found.error} notice={action.notice} busy={action.busy} />
      <KeyHints hints={hints} />
    </Box>
  );
}
