/** Loads the tfplugin6 and go-plugin service definitions. */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import type { ServiceDefinition } from '@grpc/grpc-js';

/**
 * The .proto files ship next to the sources (package.json "files"), not in dist/, so look
 * beside this module first (running from src/) and then in src/ from dist/.
 */
export function protoDir(): string {
  const candidates = [path.join(__dirname, 'proto'), path.resolve(__dirname, '..', '..', 'src', 'provider', 'proto')];
  const found = candidates.find((dir) => existsSync(path.join(dir, 'tfplugin6.proto')));
  if (!found) throw new Error(`tfplugin6.proto not found in ${candidates.join(' or ')}`);
  return found;
}

export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true, // field names as in the .proto (snake_case), as terraform's docs name them
  longs: Number, // int64 values here are schema versions and list indexes
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};

export interface ProtocolServices {
  provider: ServiceDefinition;
  controller: ServiceDefinition;
  stdio: ServiceDefinition;
}

export function loadProtocol(): ProtocolServices {
  const dir = protoDir();
  const defs = protoLoader.loadSync([path.join(dir, 'tfplugin6.proto'), path.join(dir, 'go_plugin.proto')], {
    ...LOADER_OPTIONS,
    includeDirs: [dir],
  });
  const service = (name: string) => defs[name] as unknown as ServiceDefinition;
  return {
    provider: service('tfplugin6.Provider'),
    controller: service('plugin.GRPCController'),
    stdio: service('plugin.GRPCStdio'),
  };
}
