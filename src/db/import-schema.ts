// The imported-user table (issue 33), beside the core tables of schema.ts.

/** Which user an imported record became: (source, sourceId) is unique (issue 33). */
export interface ImportedUserTable {
  source: string;
  sourceId: string;
  userId: string;
  importedAt: number;
}
