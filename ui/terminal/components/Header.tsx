import { Box, Text } from "ink";

export const TABS = ["users", "organizations", "sessions", "audit", "api-keys", "clients", "webhooks"] as const;
export type Tab = (typeof TABS)[number];

/** Title and the screens one tab press away (`tabs`: those this daemon offers); the current one highlighted. */
export function Header({ tab, tabs = TABS, detail }: { tab: Tab; tabs?: readonly Tab[]; detail?: string }) {
  return (
    <Box columnGap={2}>
      <Text bold color="magenta">
        authd admin
      </Text>
      {tabs.map((name) => (
        <Text key={name} inverse={name === tab} bold={name === tab} dimColor={name !== tab}>
          {` ${name.replace("-", " ")} `}
        </Text>
      ))}
      {detail ? <Text color="cyan">{`› ${detail}`}</Text> : null}
    </Box>
  );
}
