import * as z from "zod";
import { ENV_BINDINGS } from "./env-bindings.ts";
import { configSchema } from "./schema.ts";

// The configuration reference (README table, `authd config check`), derived from the schema itself.

export interface ConfigField {
  key: string;
  env: string[];
  type: string;
  default: unknown;
  description: string;
}

type JSONSchema = {
  type?: string | string[];
  properties?: Record<string, JSONSchema>;
  default?: unknown;
  description?: string;
  enum?: unknown[];
  anyOf?: JSONSchema[];
  additionalProperties?: unknown;
  items?: JSONSchema;
};

function typeOf(schema: JSONSchema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" \\| ");
  if (schema.type === "array") return `${schema.items ? typeOf(schema.items) : "any"}[]`;
  if (schema.type === "object") return "object";
  return Array.isArray(schema.type) ? schema.type.join(" \\| ") : (schema.type ?? "any");
}

function walk(schema: JSONSchema, prefix: string, out: ConfigField[]): void {
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (child.type === "object" && child.properties && Object.keys(child.properties).length > 0) {
      walk(child, key, out);
      continue;
    }
    out.push({
      key,
      env: ENV_BINDINGS.filter((b) => b.path.join(".") === key).map((b) => b.env),
      type: typeOf(child),
      default: child.default,
      description: child.description ?? "",
    });
  }
}

export function configReference(): ConfigField[] {
  const json = z.toJSONSchema(configSchema(), { io: "input", unrepresentable: "any" }) as JSONSchema;
  const fields: ConfigField[] = [];
  walk(json, "", fields);
  return fields;
}

function formatDefault(field: ConfigField): string {
  if (field.key === "baseURL") return "`http://localhost:<port>`";
  if (field.key === "secret") return "generated, stored in the database";
  if (field.default === undefined) return "—";
  return `\`${JSON.stringify(field.default)}\``;
}

/** The markdown table the README carries between its config markers. */
export function configReferenceMarkdown(): string {
  const rows = configReference().map((f) => {
    const env = f.env.length ? f.env.map((e) => `\`${e}\``).join(", ") : "";
    return `| \`${f.key}\` | ${env} | ${f.type} | ${formatDefault(f)} | ${f.description.replace(/\|/g, "\\|")} |`;
  });
  const social =
    "| `social.<id>.clientId` / `clientSecret` / `issuer` / `trusted` | `AUTH_SOCIAL_<ID>_CLIENT_ID`, `AUTH_SOCIAL_<ID>_CLIENT_SECRET`, `AUTH_SOCIAL_<ID>_ISSUER`, `AUTH_SOCIAL_<ID>_TRUSTED` | string / boolean | — | a social provider (see Social sign-in) |";
  return [
    "| key (config file) | environment | type | default | meaning |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    social,
  ].join("\n");
}
