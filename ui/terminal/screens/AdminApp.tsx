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
import { SessionsScreen } from "./SessionsScreen.tsx";
import { UserDetailScreen } from "./UserDetailScreen.tsx";
import { UsersScreen } from "./UsersScreen.tsx";

type Detail = { kind: "user"; id: string } | { kind: "organization"; id: string } | { kind: "client"; id: string };

/** The screens this daemon offers: the OpenID clients only while the OpenID Provider is on. */
export function offeredTabs(data: AdminData): Tab[] {
  return TABS.filter((tab) => tab !== "clients" || data.oidcProviderEnabled());
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

  let screen: ReactNode;
  if (detail?.kind === "user") screen = <UserDetailScreen data={data} userId={detail.id} nav={nav} />;
  else if (detail?.kind === "organization")
    screen = <OrganizationDetailScreen data={data} organizationId={detail.id} nav={nav} />;
  else if (detail?.kind === "client") screen = <ClientDetailScreen data={data} clientId={detail.id} nav={nav} />;
  else if (tab === "users") screen = <UsersScreen {...listProps("users")} />;
  else if (tab === "organizations") screen = <OrganizationsScreen {...listProps("organizations")} />;
  else if (tab === "sessions") screen = <SessionsScreen {...listProps("sessions")} />;
  else if (tab === "audit") screen = <AuditScreen {...listProps("audit")} />;
  else if (tab === "api-keys") screen = <ApiKeysScreen {...listProps("api-keys")} />;
  else screen = <ClientsScreen {...listProps("clients")} />;

  return (
    <Box flexDirection="column">
      <Header tab={tab} tabs={tabs} detail={detail ? detail.kind : undefined} />
      <ErrorBoundary resetKey={`${tab}:${detail?.id ?? ""}`}>{screen}</ErrorBoundary>
    </Box>
  );
}
