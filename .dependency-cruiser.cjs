/**
 * The layers of lib/ and the rules that keep them (docs/architecture.md, "Layers"). `npm test` runs
 * `depcruise --config .dependency-cruiser.cjs lib app components elements cli` (scripts/test.ts). Tests
 * (*.test.ts) drive modules from outside and are not checked. Type-only imports count: a layer break
 * in a type is still a break.
 */
const layer = (...modules) => `^lib/(${modules.join("|")})(/|\\.ts$)`;

// Bottom to top. A module imports only its own layer (without cycles) or the layers below.
const LAYERS = [
  [
    "infrastructure",
    layer(
      "config",
      "log",
      "errors",
      "crypto",
      "ceremonies/uaf",
      "settings",
      "db",
      "request",
      "mail",
      "metrics",
      "background",
    ),
  ],
  [
    "owners",
    layer(
      "tenants",
      "api-keys",
      "analytics",
      "audit",
      "rate-limit",
      "webhooks",
      "users",
      "metadata",
      "credentials",
      "passcodes",
      "emails",
      "mfa",
      "sessions",
      "passwords",
      "identities",
      "one-time-tokens",
      "uaf-requests",
    ),
  ],
  ["ceremonies", layer("ceremonies/webauthn")],
  // Hanko's wire shapes that the admin and public APIs, the flow payloads and user.* webhooks share.
  ["wire", layer("wire")],
  ["accounts", layer("accounts")],
  [
    "services",
    layer(
      "hosted",
      "thirdparty",
      "saml",
      "openid",
      "flows",
      "audit-logs",
      "operators",
      "console",
      "boot",
      "examples",
      "health",
      "uaf-client",
    ),
  ],
  ["contracts", layer("contracts", "openapi")],
  ["routes", layer("http")],
];

const above = (index) => LAYERS.slice(index + 1).map(([, path]) => path);

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycle among files (and so none among modules); no exceptions.",
      severity: "error",
      from: { path: "^(lib|app|components|elements|cli)/" },
      to: { circular: true },
    },
    ...LAYERS.slice(0, -1).map(([name, path], index) => ({
      name: `layer-${name}`,
      comment: `${name} imports nothing from a higher layer`,
      severity: "error",
      from: { path, pathNot: "\\.test\\.tsx?$" },
      to: { path: above(index) },
    })),
    {
      name: "owner-store",
      comment: "Only its own module imports a store (store.ts, <part>-store.ts)",
      severity: "error",
      from: { path: "^lib/([^/]+)/" },
      to: { path: "[/-]store\\.ts$", pathNot: "^lib/$1/" },
    },
    {
      name: "index-exports-operations",
      comment: "A module's index exports operations: it imports (and so re-exports) no store",
      severity: "error",
      from: { path: "^lib/.+/index\\.ts$" },
      to: { path: "[/-]store\\.ts$" },
    },
    {
      name: "tables-in-stores",
      comment:
        "Tables of lib/db/schema are imported as values only by stores, and by fragments.ts (SQL conditions " +
        "for other owners' statements, never run there); types anywhere",
      severity: "error",
      from: {
        path: "^(lib|app|cli|components)/",
        pathNot: ["[/-]store\\.ts$", "/fragments\\.ts$", "^lib/db/", "\\.test\\.tsx?$"],
      },
      to: { path: "^lib/db/schema", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "fragments-run-nothing",
      comment: "fragments.ts builds SQL for other owners' statements and runs none (no executor, no store)",
      severity: "error",
      from: { path: "/fragments\\.ts$" },
      to: { path: ["^lib/db/index\\.ts$", "[/-]store\\.ts$"] },
    },
    {
      name: "lib-not-app",
      comment: "lib/ never imports app/ or components/",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "elements-not-lib",
      comment: "elements/ (bundled for browsers) never imports lib/",
      severity: "error",
      from: { path: "^elements/" },
      to: { path: "^lib/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["node_modules", "\\.test\\.tsx?$", "^\\.next/"] },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] },
    reporterOptions: {
      archi: {
        collapsePattern:
          "^(lib/ceremonies/[^/]+|lib/db/schema|lib/[^/]+|app/[^/]+|components/[^/]+|elements/[^/]+|cli)",
      },
    },
  },
};
