// Which catalogue errors each route's handler can throw, found by reading the source: a call graph over
// src/ (function declarations and function-valued consts, resolved through imports, namespace imports
// included) from the handler, collecting every string literal that names a catalogue entry in the
// functions it reaches and in the module-level constants they use. Errors are thrown by key
// (`new AuthError("KEY")`, or a key carried in a value or a table), so a key that never appears in
// reachable code cannot be thrown from it. It over-approximates: a key that is only compared against is
// counted too. What it cannot follow is a call through an object (ctx.mailer.send, a stored callback);
// the request pipeline's own errors are listed by hand in src/http/route-errors.ts and checked here too.
//
// `bun scripts/route-error-analysis.ts` prints, per route, the errors its handler can answer with;
// `--write` (`npm run route-errors`) writes them to src/http/route-errors.generated.ts, the map the
// OpenAPI document reads at run time. test/unit/route-errors.test.ts fails while that file is stale.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseSync } from "rolldown/utils";
import { ERRORS, type ErrorKey } from "../src/errors.ts";
import { GENERATED_PATH, generatedModule } from "./route-error-map.ts";

type Node = { type: string; [key: string]: unknown };

interface ModuleInfo {
  path: string;
  /** Module-level functions and constants by name. */
  bindings: Map<string, Node>;
  /** Local import names → the module and the name imported ("*" for a namespace). */
  imports: Map<string, { from: string; name: string }>;
  /** Every defineRoute({...}) the module mounts, with the arguments of the factory call that made it, if any. */
  routes: RouteInstance[];
}

/** A defineRoute({...}) object; one written in a factory (`const r = (path) => defineRoute({ path, ... })`) has one instance per call of the factory, its parameters bound to that call's arguments. */
interface RouteInstance {
  definition: Node;
  args: Map<string, Node>;
}

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && typeof (value as Node).type === "string";

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "parent") continue;
    if (Array.isArray(value)) for (const item of value) isNode(item) && out.push(item);
    else if (isNode(value)) out.push(value);
  }
  return out;
}

function walk(node: Node, visit: (node: Node, parent: Node | null) => void, parent: Node | null = null): void {
  visit(node, parent);
  for (const child of children(node)) walk(child, visit, node);
}

function resolveImport(from: string, source: string): string | null {
  if (!source.startsWith(".")) return null;
  return resolve(dirname(from), source);
}

function readModule(path: string): ModuleInfo {
  const program = parseSync(path, readFileSync(path, "utf8")).program as unknown as Node;
  const info: ModuleInfo = { path, bindings: new Map(), imports: new Map(), routes: [] };
  for (const statement of program.body as Node[]) {
    const declaration =
      statement.type.startsWith("Export") && isNode(statement.declaration) ? statement.declaration : statement;
    if (declaration.type === "ImportDeclaration") {
      const from = resolveImport(path, (declaration.source as Node).value as string);
      if (!from) continue;
      for (const spec of declaration.specifiers as Node[]) {
        const local = (spec.local as Node).name as string;
        const name =
          spec.type === "ImportNamespaceSpecifier" ? "*" : (((spec.imported as Node)?.name as string) ?? "default");
        info.imports.set(local, { from, name });
      }
    } else if (declaration.type === "ExportNamedDeclaration" && isNode(declaration.source)) {
      // A re-export (export { name } from "./x.ts") resolves to where the name is defined, so a function
      // moved to another module and re-exported keeps its throws in the graph.
      const from = resolveImport(path, declaration.source.value as string);
      if (!from) continue;
      for (const spec of declaration.specifiers as Node[]) {
        const exported = spec.exported as Node;
        const local = spec.local as Node;
        info.imports.set((exported.name ?? exported.value) as string, {
          from,
          name: (local.name ?? local.value) as string,
        });
      }
    } else if (declaration.type === "FunctionDeclaration" && isNode(declaration.id)) {
      info.bindings.set(declaration.id.name as string, declaration);
    } else if (declaration.type === "VariableDeclaration") {
      for (const d of declaration.declarations as Node[])
        if (isNode(d.id) && d.id.type === "Identifier" && isNode(d.init))
          info.bindings.set(d.id.name as string, d.init);
    }
  }
  const inFactory = new Set<Node>();
  for (const [name, binding] of info.bindings) {
    if (!FUNCTION_TYPES.has(binding.type)) continue;
    const definitions = routeDefinitions(binding);
    if (definitions.length === 0) continue;
    const params = (binding.params as Node[]).map((param) =>
      param.type === "Identifier" ? (param.name as string) : "",
    );
    walk(program, (node) => {
      const callee = node.callee as Node | undefined;
      if (node.type !== "CallExpression" || callee?.type !== "Identifier" || callee.name !== name) return;
      const args = new Map(params.map((param, i) => [param, (node.arguments as Node[])[i]] as const));
      for (const definition of definitions) info.routes.push({ definition, args });
    });
    for (const definition of definitions) inFactory.add(definition);
  }
  for (const definition of routeDefinitions(program))
    if (!inFactory.has(definition)) info.routes.push({ definition, args: new Map() });
  return info;
}

const FUNCTION_TYPES = new Set(["ArrowFunctionExpression", "FunctionExpression", "FunctionDeclaration"]);

/** The object literal of every defineRoute({...}) call under a node. */
function routeDefinitions(root: Node): Node[] {
  const out: Node[] = [];
  walk(root, (node) => {
    const callee = node.callee as Node | undefined;
    if (node.type === "CallExpression" && callee?.type === "Identifier" && callee.name === "defineRoute") {
      const [definition] = node.arguments as Node[];
      if (definition?.type === "ObjectExpression") out.push(definition);
    }
  });
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "client" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** A property of an object literal by its (identifier or string) key. */
export function propertyOf(object: Node, name: string): Node | undefined {
  for (const property of object.properties as Node[]) {
    const key = property.key as Node | undefined;
    if (property.type === "Property" && key && (key.name === name || key.value === name)) return property.value as Node;
  }
  return undefined;
}

/**
 * A string property of a route definition: written as a literal, or a parameter of the factory that made
 * the route, bound to a literal at the call. The generated map is keyed by method and path, so both must be
 * readable from the source.
 */
function literalOf(definition: Node, name: string, args: Map<string, Node>, file: string): string {
  let node = propertyOf(definition, name);
  if (node?.type === "Identifier") node = args.get(node.name as string);
  if (node?.type === "Literal" && typeof node.value === "string") return node.value;
  throw new Error(`${file}: a route's ${name} is neither a string literal nor a factory parameter given one`);
}

const CATALOGUE = new Set(Object.keys(ERRORS));

export class ErrorAnalysis {
  private readonly modules = new Map<string, ModuleInfo>();

  constructor(readonly root: string) {
    for (const path of sourceFiles(join(root, "src"))) this.modules.set(path, readModule(path));
  }

  private module(path: string): ModuleInfo | undefined {
    return this.modules.get(path) ?? this.modules.get(`${path}.ts`) ?? this.modules.get(path.replace(/\.js$/, ".ts"));
  }

  /** What an identifier names at module level: a binding of this module, or one it imports. */
  private resolveName(module: ModuleInfo, name: string): { module: ModuleInfo; node: Node } | undefined {
    const local = module.bindings.get(name);
    if (local) return { module, node: local };
    const imported = module.imports.get(name);
    if (!imported || imported.name === "*") return undefined;
    const target = this.module(imported.from);
    return target ? this.resolveName(target, imported.name) : undefined;
  }

  private resolveMember(module: ModuleInfo, object: string, property: string) {
    const imported = module.imports.get(object);
    if (imported?.name !== "*") return undefined;
    const target = this.module(imported.from);
    return target ? this.resolveName(target, property) : undefined;
  }

  /** Catalogue keys reachable from a node (a handler, a function, a constant) of a module. */
  reachable(module: ModuleInfo, start: Node, follow = true): Set<string> {
    const found = new Set<string>();
    const seen = new Set<Node>();
    const visit = (mod: ModuleInfo, node: Node) => {
      if (seen.has(node)) return;
      seen.add(node);
      walk(node, (n, parent) => {
        if (!follow && node !== start) return;
        if (n.type === "Literal" && typeof n.value === "string" && CATALOGUE.has(n.value)) found.add(n.value);
        if (n.type === "MemberExpression" && !n.computed && isNode(n.object) && n.object.type === "Identifier") {
          const target = this.resolveMember(mod, n.object.name as string, (n.property as Node).name as string);
          if (target) visit(target.module, target.node);
        }
        if (n.type !== "Identifier" || !parent) return;
        // Property names and member names are not references to a module-level binding.
        if (parent.type === "MemberExpression" && parent.property === n && !parent.computed) return;
        if (parent.type === "Property" && parent.key === n && !parent.computed && !parent.shorthand) return;
        const target = this.resolveName(mod, n.name as string);
        if (target) visit(target.module, target.node);
      });
    };
    // A bare name (errors: SHARED_LIST, handler: someFunction) stands for what it is bound to.
    const named = start.type === "Identifier" ? this.resolveName(module, start.name as string) : undefined;
    if (named) visit(named.module, named.node);
    else visit(module, start);
    return found;
  }

  /** Every defineRoute in src/http/routes with what its handler can throw (as answered, through refusals). */
  routes(): { file: string; path: string; method: string; computed: ErrorKey[] }[] {
    const out = [];
    for (const module of this.modules.values()) {
      if (!module.path.includes(`${join("src", "http", "routes")}`)) continue;
      for (const { definition, args } of module.routes) {
        const handler = propertyOf(definition, "handler");
        const thrown = handler ? this.reachable(module, handler) : new Set<string>();
        const refusals = new Map<string, string>();
        const refusalNode = propertyOf(definition, "refusals");
        if (refusalNode?.type === "ObjectExpression")
          for (const p of refusalNode.properties as Node[])
            refusals.set(((p.key as Node).name ?? (p.key as Node).value) as string, (p.value as Node).value as string);
        const computed = [...new Set([...thrown].map((key) => refusals.get(key) ?? key))].sort() as ErrorKey[];
        const file = relative(this.root, module.path);
        out.push({
          file,
          path: literalOf(definition, "path", args, file),
          method: literalOf(definition, "method", args, file),
          computed,
        });
      }
    }
    return out;
  }

  /**
   * Keys reachable from a named function of a module (the pipeline: runRoute, resolveSession, middleware);
   * with follow false, only the keys written in that function itself.
   */
  reachableFrom(file: string, name: string, follow = true): Set<string> {
    const module = this.module(join(this.root, file));
    const node = module?.bindings.get(name);
    if (!module || !node) throw new Error(`${file}: no ${name}`);
    return this.reachable(module, node, follow);
  }
}

if (import.meta.main) {
  const root = resolve(import.meta.dirname, "..");
  const analysis = new ErrorAnalysis(root);
  if (process.argv.includes("--write")) {
    writeFileSync(join(root, GENERATED_PATH), generatedModule(analysis.routes()));
    console.log(`${GENERATED_PATH} written`);
  } else {
    for (const route of analysis.routes())
      console.log(`${route.method} ${route.path} (${route.file})\n    ${JSON.stringify(route.computed)}`);
  }
}
