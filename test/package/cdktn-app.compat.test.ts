/**
 * A CDK Terrain (cdktn 0.24) app installs the packed package and works end to end (see
 * user-app.ts). cdktn-cli needs Node 22.19 or later: on older Node its deploy is skipped here,
 * and .ci/run runs this file again on Node 22.
 */
import { CDKTN_CLI_RUNS, describeUserApp } from './user-app';

jest.setTimeout(420_000);

describeUserApp('cdktn', { deploy: CDKTN_CLI_RUNS ? 'app' : 'skip' });
