/**
 * Validation messages a person reads next to a console field (issue 29, point 5): zod's default texts
 * ("Too small: expected string to have >=1 characters", "Invalid input") become plain words saying what
 * to change; the schemas' own messages ("must be a host name …") are kept, with a capital first letter.
 */

interface Issue {
  code?: string;
  message: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
  expected?: string;
  format?: string;
  values?: unknown[];
}

/** zod's own default messages start like this; the schemas' custom ones never do. */
const ZOD_DEFAULT = /^(Too small|Too big|Invalid)\b/;

const EXPECTED: Record<string, string> = {
  string: "Enter text here.",
  number: "Enter a number.",
  int: "Enter a whole number.",
  boolean: "Choose on or off.",
  array: "Enter one entry per line.",
};

const FORMAT: Record<string, string> = {
  email: "Enter an email address such as name@example.com.",
  url: "Enter a URL such as https://example.com.",
  uuid: "Choose an entry from the list.",
};

function plainDefault(issue: Issue): string {
  const min = Number(issue.minimum);
  const max = Number(issue.maximum);
  switch (issue.code) {
    case "too_small":
      if (issue.origin === "string") return min <= 1 ? "Enter a value." : `Enter at least ${min} characters.`;
      if (issue.origin === "array" || issue.origin === "set")
        return min <= 1 ? "Add at least one." : `Add at least ${min}.`;
      return `Enter ${min} or more.`;
    case "too_big":
      if (issue.origin === "string") return `Enter at most ${max} characters.`;
      if (issue.origin === "array" || issue.origin === "set") return `Enter at most ${max} entries.`;
      return `Enter ${max} or less.`;
    case "invalid_type":
      return EXPECTED[issue.expected ?? ""] ?? "Enter a value of the kind this field asks for.";
    case "invalid_value":
      return issue.values && issue.values.length > 0 && issue.values.length <= 8
        ? `Choose one of: ${issue.values.map(String).join(", ")}.`
        : "Choose one of the offered values.";
    case "invalid_format":
      return FORMAT[issue.format ?? ""] ?? "Check the format of this value.";
    default:
      return "Check this value.";
  }
}

/** What a console form shows next to a field for one issue. */
export function plainIssueMessage(issue: Issue): string {
  const message = ZOD_DEFAULT.test(issue.message) ? plainDefault(issue) : issue.message;
  return sentence(message);
}

/** A capital first letter; the rest as written. */
export function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}
