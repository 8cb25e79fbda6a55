import { Box, Text } from "ink";

export type KeyHint = [key: string, label: string];

/** The keys a screen answers to, always on screen. */
export function KeyHints({ hints }: { hints: KeyHint[] }) {
  return (
    <Box flexWrap="wrap" columnGap={2}>
      {hints.map(([key, label]) => (
        <Text key={key}>
          <Text color="cyan" bold>
            {key}
          </Text>
          <Text dimColor>{` ${label}`}</Text>
        </Text>
      ))}
    </Box>
  );
}
