import { Box, Text } from "ink";
import type { AdminData } from "../../data.ts";
import { toDay } from "../../shared/dates.ts";
import { KeyHints } from "../components/KeyHints.tsx";
import { StatusLine } from "../components/StatusLine.tsx";
import { Table } from "../components/Table.tsx";
import { useAsyncData } from "../hooks/use-async-data.ts";
import { useKeys } from "../hooks/use-keys.tsx";
import { useTerminalSize } from "../hooks/use-terminal-size.ts";
import type { Navigation } from "./navigation.ts";

/** One organization: members (enter opens one), invitations and teams. */
export function OrganizationDetailScreen({
  data,
  organizationId,
  nav,
}: {
  data: AdminData;
  organizationId: string;
  nav: Navigation;
}) {
  const { columns, rows } = useTerminalSize();
  const overview = useAsyncData(() => data.describeOrganization(organizationId), [organizationId]);
  const info = overview.data;
  const sectionRows = Math.max(2, Math.floor((rows - 12) / 3));

  useKeys((_input, key) => {
    if (key.escape) nav.back();
    if (key.tab) nav.nextTab(key.shift ? -1 : 1);
  });

  if (!info) {
    return (
      <Box flexDirection="column">
        <StatusLine error={overview.error} />
        <Text dimColor>{overview.loading ? "loading…" : "this organization no longer exists"}</Text>
        <KeyHints hints={[["esc", "back"]]} />
      </Box>
    );
  }
  const more = (shown: number, total: number) =>
    total > shown ? <Text dimColor>{`  … and ${total - shown} more`}</Text> : null;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{info.organization.name}</Text>
        {`  slug ${info.organization.slug}  `}
        <Text dimColor>{info.organization.id}</Text>
      </Text>
      <Text bold>{`Members (${info.members.length})`}</Text>
      <Table
        rows={info.members.slice(0, sectionRows)}
        width={columns}
        rowKey={(m) => m.id}
        emptyText="no members"
        columns={[
          { header: "email", value: (m) => m.email },
          { header: "name", value: (m) => m.name },
          { header: "role", width: 12, value: (m) => m.role },
          { header: "since", width: 10, value: (m) => toDay(m.createdAt) },
        ]}
      />
      {more(sectionRows, info.members.length)}
      <Text bold>{`Invitations (${info.invitations.length})`}</Text>
      <Table
        rows={info.invitations.slice(0, sectionRows)}
        width={columns}
        rowKey={(i) => i.id}
        emptyText="no invitations"
        columns={[
          { header: "email", value: (i) => i.email },
          { header: "role", width: 12, value: (i) => i.role },
          { header: "status", width: 10, value: (i) => i.status },
          { header: "expires", width: 10, value: (i) => toDay(i.expiresAt) },
        ]}
      />
      {more(sectionRows, info.invitations.length)}
      <Text bold>{`Teams (${info.teams.length})`}</Text>
      <Table
        rows={info.teams.slice(0, sectionRows)}
        width={columns}
        rowKey={(t) => t.id}
        emptyText="no teams"
        columns={[
          { header: "name", value: (t) => t.name },
          { header: "members", width: 7, value: (t) => t.memberCount },
          { header: "created", width: 10, value: (t) => toDay(t.createdAt) },
        ]}
      />
      {more(sectionRows, info.teams.length)}
      <StatusLine error={overview.error} />
      <KeyHints
        hints={[
          ["esc", "back"],
          ["tab", "next screen"],
        ]}
      />
    </Box>
  );
}
