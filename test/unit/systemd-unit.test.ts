// deploy/systemd/qr-service.service as systemd reads it: systemd-analyze verify refuses unknown
// keys, a unit without a runnable ExecStart= and a program that does not exist (it refused
// `ExecStart=${NODE} ...`: systemd takes no variable as the program, hence /usr/bin/env).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const UNIT = fileURLToPath(new URL('../../deploy/systemd/qr-service.service', import.meta.url));

describe('deploy/systemd/qr-service.service', () => {
  it('passes systemd-analyze verify (Debian: apt-get install systemd)', () => {
    const verify = spawnSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8' });
    expect(verify.error, 'systemd-analyze is missing').toBeUndefined();
    expect(`${verify.stdout}${verify.stderr}`).toBe('');
    expect(verify.status).toBe(0);
  });

  it('runs the Node that NODE names, not a fixed /usr/bin/node', () => {
    const unit = readFileSync(UNIT, 'utf8');
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/env \$\{NODE\} /m);
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/qr-service\/env$/m);
  });
});
