import type { AddressInfo } from 'node:net';
import { buildEmulator, type BuildEmulatorOptions, type EmulatorApp } from './app';
import { EmulatorControl } from './control';

export { buildEmulator, type BuildEmulatorOptions, type EmulatorApp } from './app';
export { EmulatorControl, EmulatorControlError, type ControlAlertFields } from './control';
export { EmulatorCore, REPORTS_PER_ACCOUNT_LIMIT } from './core';
export { DATA_FILE_MODE, DataFileError } from './data-file';
export { ApiError, ERROR_TABLE, type ErrorCode } from './errors';
export { type Fault, type FaultKind, type FaultMatch, type FaultPhase, type FaultSpec } from './faults';
export {
  REQUEST_COUNTER_LIMIT,
  REQUEST_LOG_LIMIT,
  RequestLog,
  type LoggedFault,
  type RequestCounts,
  type RequestFilter,
  type RequestLogEntry,
} from './request-log';
export { DELETE_FORMS, type DeleteForm, type EmulatorSettings } from './settings';
export {
  DEMO_ACCOUNT,
  demoSeed,
  loadSeedFile,
  parseSeed,
  SeedError,
  type EmulatorSeed,
  type SeedAccount,
  type SeedAlert,
  type SeedCredential,
  type SeedDomain,
  type SeedSubdomain,
  type SeedToken,
} from './seed';
export { type EmulatorState } from './state';

/** The options of `buildEmulator`, and where to listen. */
export interface StartEmulatorOptions extends BuildEmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:43121 (no trailing slash). */
  url: string;
  controlToken: string;
  close(): Promise<void>;
  control: EmulatorControl;
  app: EmulatorApp;
}

/** The port is taken; the message says which and what to do. */
export class PortInUseError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`port ${port} on ${host} is already in use; choose another port (0 picks a free one)`);
    this.name = 'PortInUseError';
  }
}

export async function startEmulator(opts: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const { host: givenHost, port: givenPort, ...buildOpts } = opts;
  const host = givenHost ?? '127.0.0.1';
  const port = givenPort ?? 0;
  const app = await buildEmulator(buildOpts);
  try {
    await app.listen({ host, port });
  } catch (err) {
    await app.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(host, port);
    throw err;
  }
  const address = app.server.address() as AddressInfo;
  // A wildcard bind is reached through loopback.
  let shown = address.address;
  if (shown === '0.0.0.0') shown = '127.0.0.1';
  if (shown === '::') shown = '::1';
  const url = `http://${address.family === 'IPv6' ? `[${shown}]` : shown}:${address.port}`;
  const controlToken = app.emulator.controlToken;
  let closing: Promise<void> | undefined;
  return {
    url,
    controlToken,
    control: new EmulatorControl(url, controlToken),
    app,
    close: () => (closing ??= app.close().then(() => undefined)),
  };
}
