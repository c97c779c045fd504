import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientEnv, parseEnvFile, startSandbox, writeEnvFile, type Sandbox } from '../src/index.js';

describe('the client env file', () => {
  let sandbox: Sandbox;
  let dir: string;
  before(async () => {
    sandbox = await startSandbox({
      seed: 3,
      customers: 1,
      recordsPerCustomer: 1,
      ports: { registry: 0, uaefeed: 0, custodian: 0, usbroker: 0, remit: 0 },
      remit: { webhookSecret: 'webhook-secret' },
    });
    dir = mkdtempSync(join(tmpdir(), 'sandbox-env-'));
  });
  after(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is sourced by bash to the very values the sandbox meant (the broker name’s spaces and parentheses, the key’s newlines, and quotes, $, ` and \\ besides); read back alike', () => {
    const meant: Record<string, string> = {
      ...clientEnv(sandbox),
      // What no setting holds today and a value could: each would break a quoting that is not shell-safe.
      SANDBOX_TRICKY: `it's "$HOME" \`id\` \\n; echo no`,
    };
    const path = join(dir, 'sandbox.env');
    writeEnvFile(path, meant);
    expect(statSync(path).mode & 0o777).to.equal(0o600);
    const names = Object.keys(meant);
    // As docs/jobs.md has an operator do it, then each variable NUL-terminated, as exported.
    const sourced = execFileSync(
      'bash',
      [
        '-c',
        'set -eu -a; source "$1"; shift; for name in "$@"; do printf "%s\\0" "${!name}"; done',
        'bash',
        path,
        ...names,
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] },
    ).split('\0');
    expect(Object.fromEntries(names.map((name, i) => [name, sourced[i]]))).to.deep.equal(meant);
    expect(meant.SCHEDULE_FA_BROKER_NAME).to.equal('usbroker sandbox (a test double, not an institution)');
    expect(meant.UAEFEED_PRIVATE_KEY).to.include('\n');
    expect(parseEnvFile(readFileSync(path, 'utf8'))).to.deep.equal(meant);
  });
});
