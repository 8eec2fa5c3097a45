import { createServer } from 'node:net';

/**
 * A free TCP port on 127.0.0.1, for a program the test starts that takes its port as an
 * argument (terraform's http backend, PostgreSQL, ncalc emulator --port). The probe is closed
 * again before the port is returned; the program binds it right after.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
