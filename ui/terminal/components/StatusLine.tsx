import { Text } from "ink";

/** Where an action's outcome shows: an error in red, a notice in green, or work in progress. */
export function StatusLine({ error, notice, busy }: { error?: string; notice?: string; busy?: boolean }) {
  if (error) return <Text color="red">{`✗ ${error}`}</Text>;
  if (busy) return <Text color="yellow">working…</Text>;
  if (notice) return <Text color="green">{`✓ ${notice}`}</Text>;
  return <Text> </Text>;
}
