import type { ParseArgsConfig } from "node:util";

export interface CommandInput {
  values: Record<string, string | string[] | boolean | undefined>;
  positionals: string[];
  json: boolean;
}

export interface Command {
  /** The words that select it, e.g. `tenant create`. */
  name: string;
  usage: string;
  description: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  run(input: CommandInput): Promise<void>;
}
