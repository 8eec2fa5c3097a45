/**
 * The command lines of the golden record (golden.int.test.ts), by scenario. Each scenario
 * starts from the emulator's seed (the demo account) and a fresh fixture app; its steps run in
 * order, a function being a change made between two command lines. A command line starting
 * with `@empty` runs in an empty directory (no cdktf.json).
 */
import type { RunningEmulator } from '../../src/emulator';
import { alert, stack, threeTypeStack, type FixtureApp } from '../cli/support';

type Step = string[] | ((ctx: { emu: RunningEmulator; app: FixtureApp }) => Promise<void> | void);

export interface GoldenScenario {
  stacks?: Record<string, Record<string, unknown>>;
  env?: Record<string, string>;
  steps: Step[];
}

/** Every command and subcommand, in --help order; `[]` is the program itself. */
export const HELP_COMMANDS: string[][] = [
  [],
  ['plan'],
  ['validate'],
  ['synth'],
  ['apply'],
  ['drift'],
  ['preview'],
  ['report'],
  ['coverage'],
  ['destroy'],
  ['export'],
  ['import-blocks'],
  ['emulator'],
  ['provider'],
  ['provider', 'install'],
  ['provider', 'schema'],
];

/** One alert of each type, with the data sources that name their targets. */
function threeTypes(): Record<string, unknown> {
  return threeTypeStack({
    Mx: alert({ name: 'mx contains', subtype: 'MX', filter: 'contains', filter_value: 'mail.example.com' }),
  });
}

/** A stack as the AlertPolicy construct writes it: the policy in the `//` object. */
function policyStack(mode: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const json = stack({
    provider: {},
    alerts: { Www: alert({ name: 'www A', target_type: 'subdomain', target_id: 2 }) },
  });
  json['//'] = {
    metadata: { stackName: 'main' },
    networkcalc_alert_policies: {
      Baseline_1: {
        path: 'main/Baseline',
        mode,
        targets: { domains: true, subdomains: true, include: ['*'], exclude: [] },
        checks: [
          { label: 'certificate expiry', type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: '21' },
          { label: 'SPF validity', type: 'SPF Record', filter: 'validity' },
          { label: 'www address', type: 'DNS Record', subtype: 'A', filter: 'equals', filter_value: '192.0.2.1' },
        ],
        ...extra,
      },
    },
  };
  return json;
}

const AUTO = '--auto-approve';

export const CASES: Record<string, GoldenScenario> = {
  'create, no-op, export, destroy': {
    stacks: { main: threeTypes() },
    steps: [
      ['validate'],
      ['validate', '--json'],
      ['synth', '--json'],
      ['plan'],
      ['plan', '--json'],
      ['plan', '--detailed-exitcode'],
      ['plan', '--detail'],
      ['coverage'],
      ['coverage', '--json'],
      ['coverage', '--format', 'markdown'],
      ['drift'],
      ['drift', '--json'],
      ['apply'],
      ['apply', AUTO, '--detail'],
      ['plan', '--detailed-exitcode'],
      ['plan', '--json', '--no-synth'],
      ['drift'],
      ['drift', '--format', 'markdown'],
      ['apply', AUTO, '--json'],
      ['export'],
      ['export', '--json'],
      ['export', '--cdk', 'cdktf'],
      ['import-blocks', '--json'],
      ['import-blocks'],
      ['report', '--no-preview', '--json'],
      ['destroy'],
      ['destroy', AUTO, '--json'],
      ['plan', '--json'],
      ['destroy', AUTO],
    ],
  },
  'drift and its repair': {
    stacks: { main: threeTypes() },
    steps: [
      ['apply', AUTO],
      async ({ emu }) => {
        const alerts = (await emu.control.state()).accounts[0]!.alerts;
        const www = alerts.find((a) => a.name === 'www A')!;
        await emu.control.patchAlert('demo', www.id, { filter_value: '192.0.2.99' });
        const cert = alerts.find((a) => a.name === 'cert expiry')!;
        await emu.control.deleteAlert('demo', cert.id);
        await emu.control.createAlert('demo', {
          name: 'console made',
          type: 'DNS Record',
          subtype: 'TXT',
          filter: 'contains',
          filter_value: 'v=spf1',
          target: 'example.com',
        });
      },
      ['drift'],
      ['drift', '--detail'],
      ['drift', '--json'],
      ['drift', '--format', 'markdown'],
      ['drift', '--suggest'],
      ['drift', '--suggest', '--json'],
      ['plan', '--detailed-exitcode'],
      ['plan', '--json'],
      ['coverage', '--json'],
      ['report', '--no-preview', '--json'],
      ['apply', AUTO, '--json'],
      ['drift', '--json'],
    ],
  },
  'invalid configuration': {
    stacks: {
      main: stack({
        provider: {},
        alerts: {
          Bad: alert({ name: 'bad filter', filter: 'validity' }),
          NoValue: alert({ name: 'no value', filter_value: undefined }),
          Twice: alert({ name: 'twice' }),
          Again: alert({ name: 'twice', subtype: 'AAAA', filter_value: '2001:db8::1' }),
          Cert: alert({ name: 'cert', type: 'Certificate (TLS)', subtype: 'A', filter: 'expires in (days)' }),
        },
      }),
    },
    steps: [
      ['validate'],
      ['validate', '--json'],
      ['synth'],
      ['synth', '--json'],
      ['plan'],
      ['plan', '--json'],
      ['apply', AUTO],
      ['drift', '--json'],
      ['export', '--json'],
    ],
  },
  'usage errors': {
    stacks: { main: threeTypes() },
    steps: [
      ['frobnicate'],
      ['plan', '--bogus'],
      ['plan', '--shard', '3/2'],
      ['plan', '--shard', 'x', '--json'],
      ['plan', '--lookup-timeout', 'abc'],
      ['plan', '--synth-workers', 'zero'],
      ['plan', '--synth-timeout', '-1', '--json'],
      ['drift', '--format', 'xml'],
      ['drift', '--write'],
      ['drift', '--write', '--json'],
      ['apply', '--parallelism', '0'],
      ['apply', '--json'],
      ['apply', AUTO, '--account-parallelism', 'many', '--json'],
      ['destroy', '--json'],
      ['coverage', '--lookup-concurrency', '0'],
      ['export', '--account', 'nosuch'],
      ['export', '--account', 'nosuch', '--json'],
      ['export', '--cdk', 'cdk8s'],
      ['export', '--out', 'missing/dir/app.ts'],
      ['report'],
      ['report', '--html', 'missing/dir/page.html'],
      ['provider', 'frob'],
      ['plan', '--stack', 'nosuch'],
      ['plan', '--stack', 'nosuch', '--json'],
      ['@empty', 'plan'],
      ['@empty', 'plan', '--json'],
      ['@empty', 'validate', '--json'],
      ['plan', '--no-synth', '--out', 'never-synthesized'],
      ['plan', '--no-synth', '--out', 'never-synthesized', '--json'],
      ['emulator', '--delete-form', 'header'],
      ['emulator', '--port', 'abc', '--json'],
    ],
  },
  'service errors': {
    stacks: { main: threeTypes() },
    steps: [
      async ({ emu }) => {
        await emu.control.expireTokens('demo', 'demo-token');
      },
      ['plan'],
      ['plan', '--json'],
      ['drift', '--json'],
      ['apply', AUTO],
      ['export', '--json'],
      ['import-blocks', '--json'],
    ],
  },
  'no credentials': {
    stacks: { main: threeTypes() },
    env: { NETWORKCALC_TOKEN: '' },
    steps: [['plan'], ['plan', '--json'], ['coverage'], ['export']],
  },
  'refused writes': {
    stacks: { main: threeTypes() },
    steps: [
      async ({ emu }) => {
        await emu.control.addFault({
          kind: 'reject',
          code: 'NOT_CREATED',
          match: { method: 'POST', path: '/api/alerts' },
        });
      },
      ['apply', AUTO],
      ['apply', AUTO, '--json'],
      async ({ emu }) => {
        await emu.control.clearFaults();
        await emu.control.addFault({
          kind: 'reject',
          code: 'NOT_CREATED',
          match: { method: 'POST', path: '/api/alerts' },
          count: 1,
        });
      },
      ['apply', AUTO, '--detail'],
      ['plan', '--detailed-exitcode'],
    ],
  },
  'alert policies: generate': {
    stacks: { main: policyStack('generate') },
    steps: [
      ['validate', '--json'],
      ['plan'],
      ['plan', '--json'],
      ['coverage'],
      ['coverage', '--json'],
      ['coverage', '--format', 'markdown'],
      ['apply', AUTO],
      ['coverage', '--json'],
      ['drift'],
      ['export'],
      ['report', '--no-preview', '--json'],
    ],
  },
  'alert policies: audit': {
    stacks: { main: policyStack('audit') },
    steps: [['coverage'], ['coverage', '--json'], ['drift', '--json'], ['plan', '--detail']],
  },
  'provider schema': {
    steps: [
      ['provider', 'schema', '--json'],
      ['provider', 'schema'],
    ],
  },
};
