import { OPERATOR_ROLES } from "@/lib/db/enums";
import {
  createOperator,
  findOperatorByEmail,
  listOperators,
  recoverOperator,
  removeOperator,
} from "@/lib/operators";
import { printJson, printTable, UsageError } from "../output";
import type { Command } from "./command";

const emailOf = (values: Record<string, unknown>) => {
  if (typeof values.email !== "string") throw new UsageError("--email <address> is required");
  return values.email;
};

const linkLines = (enrolment: { url: string; expiresAt: Date }) =>
  `One-time enrolment link (valid until ${enrolment.expiresAt.toISOString()}); send it to the operator:\n${enrolment.url}\n`;

export const operatorCreate: Command = {
  name: "operator create",
  usage: `operator create --email <address> [--role <${OPERATOR_ROLES.join("|")}>] [--tenant <tenant-id>]... [--json]`,
  description:
    "Create a console operator and print a one-time enrolment link (30 minutes) for its passkey. Admins and viewers see only the --tenant ones.",
  options: {
    email: { type: "string" },
    role: { type: "string" },
    tenant: { type: "string", multiple: true },
  },
  async run({ values, json }) {
    const role = typeof values.role === "string" ? values.role : "admin";
    if (!(OPERATOR_ROLES as readonly string[]).includes(role)) {
      throw new UsageError(`--role must be one of ${OPERATOR_ROLES.join(", ")}`);
    }
    const { operator, enrolment } = await createOperator(
      {
        email: emailOf(values),
        role: role as (typeof OPERATOR_ROLES)[number],
        tenantIds: Array.isArray(values.tenant) ? values.tenant : [],
      },
      "cli",
    );
    if (json) return printJson({ operator, enrolment });
    process.stdout.write(`Created operator ${operator.email} (${operator.role}).\n${linkLines(enrolment)}`);
  },
};

export const operatorList: Command = {
  name: "operator list",
  usage: "operator list [--json]",
  description: "List the console operators with their roles and tenants.",
  options: {},
  async run({ json }) {
    const operators = await listOperators();
    if (json) return printJson({ operators });
    printTable(
      operators.map((o) => ({
        id: o.id,
        email: o.email,
        role: o.role,
        tenants: o.role === "owner" ? "all" : o.tenantIds.join(" ") || "none",
        lastSignIn: o.lastSignInAt ?? "never",
      })),
    );
  },
};

export const operatorRemove: Command = {
  name: "operator remove",
  usage: "operator remove --email <address> [--json]",
  description: "Remove an operator: its passkeys and console sessions end at once. The last owner stays.",
  options: { email: { type: "string" } },
  async run({ values, json }) {
    const found = await findOperatorByEmail(emailOf(values));
    if (!found) throw new UsageError(`no operator with the email ${String(values.email)}`);
    const operator = await removeOperator(found.id, "cli");
    if (json) return printJson({ operator });
    process.stdout.write(`Removed operator ${operator.email}\n`);
  },
};

export const operatorRecover: Command = {
  name: "operator recover",
  usage: "operator recover --email <address> [--json]",
  description:
    "Print a new one-time enrolment link for an operator; existing passkeys are kept until removed.",
  options: { email: { type: "string" } },
  async run({ values, json }) {
    const { operator, enrolment } = await recoverOperator(emailOf(values), "cli");
    if (json) return printJson({ operator, enrolment });
    process.stdout.write(`Recovery for ${operator.email}.\n${linkLines(enrolment)}`);
  },
};
