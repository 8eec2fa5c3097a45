/** A cdktf 0.21 app installs the packed package and works end to end (see user-app.ts). */
import { CDKTF_CLI_RUNS, describeUserApp } from './user-app';

jest.setTimeout(420_000);

// cdktf-cli 0.21 is this repository's own development dependency: the same CLI a user installs.
describeUserApp('cdktf', { deploy: CDKTF_CLI_RUNS ? 'repo' : 'skip' });
