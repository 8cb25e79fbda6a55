import { Box, Text } from "ink";

/** The search box of a list: what has been typed, a cursor, and a hint while empty. */
export function SearchLine({ search, hint }: { search: string; hint: string }) {
  return (
    <Box>
      <Text color="cyan" bold>
        search:{" "}
      </Text>
      <Text>{search}</Text>
      <Text inverse> </Text>
      {!search ? <Text dimColor>{` ${hint}`}</Text> : null}
    </Box>
  );
}

/** Where the list is: page, total and whether the rows shown are still being replaced. */
export function PageLine({
  page,
  pages,
  total,
  noun,
  loading,
}: {
  page: number;
  pages: number;
  total: number;
  noun: string;
  loading: boolean;
}) {
  return <Text dimColor>{`page ${page + 1} of ${pages} · ${total} ${noun}(s)${loading ? " · loading…" : ""}`}</Text>;
}
