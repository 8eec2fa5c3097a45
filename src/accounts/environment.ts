import type { Environment } from '../public-types';

/**
 * The environment variables this package reads, named once for the client, the provider,
 * the constructs and `ncalc`. An account may name other variables (token_env, …); these
 * are the defaults.
 */
export const ENV = {
  baseUrl: 'NETWORKCALC_BASE_URL',
  token: 'NETWORKCALC_TOKEN',
  clientId: 'NETWORKCALC_CLIENT_ID',
  clientSecret: 'NETWORKCALC_CLIENT_SECRET',
} as const;

/**
 * The process's environment as one plain object, for runs that read many variables (a fleet's
 * token per account). Each read of `process.env` is a `getenv`, which walks the whole
 * environment, so 10,000 token variables read one by one cost about 0.25 s of CPU, and so does
 * `{ ...process.env }` (each value is read back through `getenv`). The diagnostic report is the
 * one API that hands over the environment in a single call (about 5 ms). Anything else is
 * returned as it is: another object (the provider's configuration), a process.env that is not
 * the process's (replaced by a plain object), a report without the environment
 * (`--report-exclude-env`), and Windows, whose `process.env` names ignore case.
 */
export function environmentSnapshot(env: Environment): Environment {
  if (env !== process.env || process.platform === 'win32') return env;
  // A variable set just before must be in the copy: where process.env was replaced by a plain
  // object (a test runner does so), the report's environment is not what the process reads.
  const probe = `NCALC_ENVIRONMENT_PROBE_${process.pid}`;
  process.env[probe] = '1';
  try {
    const report = process.report?.getReport() as
      { environmentVariables?: Record<string, string | undefined> } | undefined;
    const variables = report?.environmentVariables;
    if (typeof variables !== 'object' || variables?.[probe] !== '1') return env;
    delete variables[probe];
    return variables;
  } catch {
    return env;
  } finally {
    delete process.env[probe];
  }
}
