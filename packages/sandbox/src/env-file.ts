import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The client settings as an env file a shell can `source` (docs/jobs.md says to, under `set -a`):
 * every value in single quotes, where nothing is expanded and a newline (the uaefeed key's) is
 * kept; a quote inside is closed, escaped and reopened (`'\''`).
 */
export function formatEnvFile(env: Record<string, string>): string {
  const lines = [
    '# Written by `pnpm sandbox`: the UAE and India books against the sandbox (sandbox credentials, nothing real).',
    ...Object.entries(env).map(([name, value]) => `${name}='${value.replaceAll("'", `'\\''`)}'`),
  ];
  return `${lines.join('\n')}\n`;
}

/** What `formatEnvFile` wrote, read back without a shell (the bench's sandbox process). */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const match of text.matchAll(/^([A-Z_][A-Z0-9_]*)='((?:[^']|'\\'')*)'$/gm))
    env[match[1]!] = match[2]!.replaceAll(`'\\''`, "'");
  return env;
}

/** Writes `env` to `path` as `formatEnvFile` has it, mode 600 (it holds credentials, if only the sandbox's). */
export function writeEnvFile(path: string, env: Record<string, string>): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, formatEnvFile(env), { mode: 0o600 });
}
