/** Types of running-servers.mjs (plain JavaScript for scripts/server.mjs). */
export function serversDirectory(root: string): string;
export function isAlive(pid: number): boolean;
export function registerServer(root: string, pid?: number): void;
export function runningServers(root: string): number[];
