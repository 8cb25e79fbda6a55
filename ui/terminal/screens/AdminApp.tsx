import { Box, useApp } from "ink";
import { type ReactNode, useMemo, useState } from "react";
import type { AdminData } from "../../data.ts";
import { ErrorBoundary } from "../components/ErrorBoundary.tsx";
import { Header, TABS, type Tab } from "../components/Header.tsx";
import { KeyboardProvider } from "../hooks/use-keys.tsx";
import { type ListPosition, START } from "../hooks/use-paged-list.ts";
import { ApiKeysScreen } from "./ApiKeysScreen.tsx";
import { AuditScreen } from "./AuditScreen.tsx";
import { ClientDetailScreen } from "./ClientDetailScreen.tsx";
import { ClientsScreen } from "./ClientsScreen.tsx";
import type { Navigation } from "./navigation.ts";
import { OrganizationDetailScreen } from "./OrganizationDetailScreen.tsx";
import { OrganizationsScreen } from "./OrganizationsScreen.tsx";
import type { ListScreenProps } from "./SearchableListScreen.tsx";
import { SessionsScreen } from "./SessionsScreen.tsx";
import { UserDetailScreen } from "./UserDetailScreen.tsx";
import { UsersScreen } from "./UsersScreen.tsx";
import { WebhookDeliveriesScreen } from "./WebhookDeliveriesScreen.tsx";
import { WebhooksScreen } from "./WebhooksScreen.tsx";

type Detail =
  | { kind: "user"; id: string }
  | { kind: "organization"; id: string }
  | { kind: "client"; id: string }
  | { kind: "webhook"; id: string };

interface ScreenChoice {
  data: AdminData;
  nav: Navigation;
  detail: Detail | undefined;
  tab: Tab;
  listProps: (name: Tab) => ListScreenProps;
}

/** The screens this daemon offers: the OpenID clients only while the OpenID Provider is on, webhooks while on. */
export function offeredTabs(data: AdminData): Tab[] {
  return TABS.filter(
    (tab) => (tab !== "clients" || data.oidcProviderEnabled()) && (tab !== "webhooks" || data.webhooksEnabled()),
  );
}

/** The terminal admin: the lists (tab cycles them) and the detail opened from one (esc returns). */
export function AdminApp({ data }: { data: AdminData }) {
  return (
    <KeyboardProvider>
      <AdminScreens data={data} />
    </KeyboardProvider>
  );
}

function AdminScreens({ data }: { data: AdminData }) {
  const { exit } = useApp();
  const [tab, setTab] = useState<Tab>("users");
  const [detail, setDetail] = useState<Detail>();
  const [notice, setNotice] = useState<string>();
  const tabs = useMemo(() => offeredTabs(data), [data]);
  const [positions, setPositions] = useState<Record<Tab, ListPosition>>({
    users: START,
    organizations: START,
    sessions: START,
    audit: START,
    "api-keys": START,
    clients: START,
    webhooks: START,
  });

  const nav: Navigation = useMemo(
    () => ({
      openUser: (id) => {
        setNotice(undefined);
        setDetail({ kind: "user", id });
      },
      openOrganization: (id) => setDetail({ kind: "organization", id }),
      back: (message) => {
        setNotice(message);
        setDetail(undefined);
      },
      nextTab: (step) => {
        setNotice(undefined);
        setDetail(undefined);
        setTab((current) => tabs[(tabs.indexOf(current) + step + tabs.length) % tabs.length]);
      },
      quit: () => exit(),
      openClient: (id) => {
        setNotice(undefined);
        setDetail({ kind: "client", id });
      },
      openWebhook: (id) => {
        setNotice(undefined);
        setDetail({ kind: "webhook", id });
      },
    }),
    [exit, tabs],
  );

  const listProps = (name: Tab) => ({
    data,
    nav,
    position: positions[name],
    setPosition: (update: (previous: ListPosition) => ListPosition) =>
      setPositions((all) => ({ ...all, [name]: update(all[name]) })),
    notice,
  });

  const screen = screenFor({ data, nav, detail, tab, listProps });

  return (
    <Box flexDirection="column">
      <Header tab={tab} tabs={tabs} detail={detail ? detail.kind : undefined} />
      <ErrorBoundary resetKey={`${tab}:${detail?.id ?? ""}`}>{screen}</ErrorBoundary>
    </Box>
  );
}

/** The detail open, else the tab's list. */
function screenFor({ data, nav, detail, tab, listProps }: ScreenChoice): ReactNode {
  if (detail?.kind === "user") return <UserDetailScreen data={data} userId={detail.id} nav={nav} />;
  if (detail?.kind === "organization")
    return <OrganizationDetailScreen data={data} organizationId={detail.id} nav={nav} />;
  if (detail?.kind === "client") return <ClientDetailScreen data={data} clientId={detail.id} nav={nav} />;
  if (detail?.kind === "webhook") return <WebhookDeliveriesScreen data={data} endpointId={detail.id} nav={nav} />;
  if (tab === "users") return <UsersScreen {...listProps("users")} />;
  if (tab === "organizations") return <OrganizationsScreen {...listProps("organizations")} />;
  if (tab === "sessions") return <SessionsScreen {...listProps("sessions")} />;
  if (tab === "audit") return <AuditScreen {...listProps("audit")} />;
  if (tab === "api-keys") return <ApiKeysScreen {...listProps("api-keys")} />;
  if (tab === "webhooks") return <WebhooksScreen {...listProps("webhooks")} />;
  return <ClientsScreen {...listProps("clients")} />;
}
