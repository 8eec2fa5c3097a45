#!/usr/bin/env node
/** The provider executable terraform starts (through a wrapper script that execs node on it). */
import { PROVIDER_VERSION } from '../schema/provider-schema';
import { serveProvider } from './main';
import { networkcalcProvider } from './networkcalc';

// The wrapper of `ncalc provider install` names its version: a package upgraded under an old
// wrapper would otherwise serve under the old version's name and lock file checksum.
const wrapper = process.env.NETWORKCALC_PROVIDER_WRAPPER;
if (wrapper !== undefined && wrapper !== PROVIDER_VERSION) {
  // stdout: terraform shows the plugin's first line when the handshake fails.
  process.stdout.write(
    `networkcalc provider: the wrapper is for ${wrapper}, but the package in node_modules serves ${PROVIDER_VERSION}; run npx --no-install ncalc provider install in the app, then terraform init -upgrade.\n`,
  );
  process.exit(1);
}
serveProvider(networkcalcProvider());
