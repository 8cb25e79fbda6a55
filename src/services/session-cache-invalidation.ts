import {
  AliasNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
} from "kysely";

// The Redis session cache holds each session with its user. Users and sessions are also changed outside
// src/services/sessions.ts (update-user, admin, email verification, organizations clearing the active
// organization, deleting a user cascades to sessions...). Rather than asking every one of those places to
// remember the cache, the application's Kysely instance carries this plugin: after any UPDATE or DELETE
// on "user" or "session" it bumps one generation counter, and cache entries of an older generation are
// ignored. Such writes are rare next to session reads, so a global counter costs almost nothing.

const WATCHED_TABLES = new Set(["user", "session"]);

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (TableNode.is(node)) return node.table.identifier.name;
  if (AliasNode.is(node)) return tableName(node.node);
  return undefined;
}

function writtenTable(node: RootOperationNode): string | undefined {
  if (node.kind === "UpdateQueryNode") return tableName(node.table);
  if (node.kind === "DeleteQueryNode") return tableName(node.from.froms[0]);
  return undefined;
}

export function sessionCacheInvalidationPlugin(onWrite: () => Promise<void>): KyselyPlugin {
  const pending = new WeakMap<QueryId, true>();
  return {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const table = writtenTable(args.node);
      if (table && WATCHED_TABLES.has(table)) pending.set(args.queryId, true);
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (pending.has(args.queryId)) {
        pending.delete(args.queryId);
        // Awaited: the write's caller (and so its HTTP answer) waits until stale entries are disowned.
        await onWrite();
      }
      return args.result;
    },
  };
}
