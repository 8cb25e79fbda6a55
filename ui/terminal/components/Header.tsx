import { Box, Text } from "ink";

export const TABS = ["users", "organizations", "sessions", "audit"] as const;
export type Tab = (typeof TABS)[number];

/** Title and the screens one tab press away; the current one highlighted. */
export function Header({ tab, detail }: { tab: Tab; detail?: string }) {
  return (
    <Box columnGap={2}>
      <Text bold color="magenta">
        authd admin
      </Text>
      {TABS.map((name) => (
        <Text key={name} inverse={name === tab} bold={name === tab} dimColor={name !== tab}>
          {` ${name} `}
        </Text>
      ))}
      {detail ? <Text color="cyan">{`› ${detail}`}</Text> : null}
    </Box>
  );
}
