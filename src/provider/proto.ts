/** Loads the tfplugin6 and go-plugin service definitions. */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as sea from 'node:sea';
import * as protoLoader from '@grpc/proto-loader';
import type { ServiceDefinition } from '@grpc/grpc-js';
import * as protobuf from 'protobufjs';

/** The protocol's .proto files: in src/provider/proto, and the assets of the standalone executable. */
export const PROTO_FILES = ['tfplugin6.proto', 'go_plugin.proto'] as const;
/** The well-known types they import, which protobufjs brings. */
const WELL_KNOWN_IMPORTS = ['google/protobuf/empty.proto', 'google/protobuf/timestamp.proto'];

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

/**
 * The standalone executable (a Node single executable application, release/) has no files
 * beside it: its .proto files are assets of the executable, parsed as loadSync would parse them.
 */
function definitionsFromAssets(): protoLoader.PackageDefinition {
  const root = new protobuf.Root();
  for (const name of WELL_KNOWN_IMPORTS) root.addJSON(protobuf.common.get(name)!.nested!);
  for (const name of PROTO_FILES) protobuf.parse(sea.getAsset(name, 'utf8'), root, { keepCase: true });
  return protoLoader.fromJSON(root.toJSON(), LOADER_OPTIONS);
}

export function loadProtocol(): ProtocolServices {
  const defs = sea.isSea()
    ? definitionsFromAssets()
    : protoLoader.loadSync(
        PROTO_FILES.map((name) => path.join(protoDir(), name)),
        { ...LOADER_OPTIONS, includeDirs: [protoDir()] },
      );
  const service = (name: string) => defs[name] as unknown as ServiceDefinition;
  return {
    provider: service('tfplugin6.Provider'),
    controller: service('plugin.GRPCController'),
    stdio: service('plugin.GRPCStdio'),
  };
}
