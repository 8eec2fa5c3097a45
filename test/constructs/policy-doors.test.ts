/**
 * One policy document, two doors: the `AlertPolicy` construct validating at synth and `ncalc`
 * reading cdk.tf.json give the same answer (the same policy, or the same problems) for the same
 * document, because both call `parsePolicyDocument`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { NetworkcalcAccount, Ownership } from '../../src/constructs';
import { AlertPolicy, PolicyMode, type AlertPolicyProps } from '../../src/constructs/alert-policy';
import {
  PROBLEMS_FILE_ENV,
  readProblemsFile,
  writeProblemsFile,
  type ConstructProblem,
} from '../../src/contract/problems';
import { problemText } from '../../src/model/problems';
import { readDesired } from '../../src/read/desired';
import { tempApp } from './support';

interface Door {
  /** The policy as read, or null when refused. */
  policy: unknown;
  /** Each problem without the door's framing: `<field>: <message>`, the account named `<account>`. */
  problems: string[];
}

/** The account in a message, in either door's words. */
const neutral = (m: string) => m.replace(/ of (account|provider) [^\s,]+/, ' of <account>');

function ncalcReads(json: Record<string, unknown>): Door {
  const d = readDesired([{ name: 'main', json }]);
  return {
    policy: d.policies.length
      ? { mode: d.policies[0].mode, targets: d.policies[0].targets, checks: d.policies[0].checks }
      : null,
    problems: d.problems.map((p) =>
      neutral(problemText(p).replace(/^stack main, policy main\/P: (checks\[\d+\]: )?/, '')),
    ),
  };
}

const providerBlock = (prefix?: string) => (prefix ? { ownership: 'prefix', ownership_prefix: prefix } : {});

/** The construct's door: its problems at synth, else the JSON it wrote, read by ncalc. */
function constructSays(props: unknown, prefix?: string): Door {
  const { app, outdir } = tempApp();
  const stack = new TerraformStack(app, 'main');
  new NetworkcalcAccount(stack, 'Account', prefix ? { ownership: Ownership.prefix(prefix) } : {});
  new AlertPolicy(stack, 'P', props as AlertPolicyProps);
  try {
    app.synth();
  } catch (err) {
    const problems = (err as { problems?: Array<{ message: string }> }).problems;
    if (!problems) throw err;
    return { policy: null, problems: problems.map((p) => neutral(p.message.replace(/ \(from [^)]*\)$/, ''))) };
  }
  const json = JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', 'main', 'cdk.tf.json'), 'utf8'));
  return ncalcReads(json);
}

/** ncalc's door: the document as a hand-written (or older) cdk.tf.json holds it. */
function ncalcSays(document: Record<string, unknown>, prefix?: string): Door {
  return ncalcReads({
    provider: { networkcalc: [providerBlock(prefix)] },
    '//': { networkcalc_alert_policies: { P_1: { path: 'main/P', ...document } } },
  });
}

const SPF_DOC = { type: 'SPF Record', filter: 'validity' };
const SPF = { spfRecord: { filter: 'validity' } };
const EVERY = { domains: true, subdomains: true, include: ['*'], exclude: [] };
const spfCheck = (label: string) => ({
  label,
  type: 'SPF Record',
  subtype: null,
  filter: 'validity',
  filter_value: '',
});

const CASES: Array<{
  case: string;
  prefix?: string;
  props: Record<string, unknown>;
  document: Record<string, unknown>;
  expected: Door;
}> = [
  {
    case: 'targets left out: every target',
    props: { mode: PolicyMode.GENERATE, checks: [SPF] },
    document: { mode: 'generate', checks: [SPF_DOC] },
    expected: { policy: { mode: 'generate', targets: EVERY, checks: [spfCheck('SPF validity')] }, problems: [] },
  },
  {
    case: 'targets null: every target, as when left out',
    props: { mode: PolicyMode.GENERATE, checks: [SPF], targets: null },
    document: { mode: 'generate', checks: [SPF_DOC], targets: null },
    expected: { policy: { mode: 'generate', targets: EVERY, checks: [spfCheck('SPF validity')] }, problems: [] },
  },
  {
    case: 'null parts of targets take their defaults',
    props: { mode: PolicyMode.GENERATE, checks: [SPF], targets: { subdomains: false, include: null, exclude: null } },
    document: { mode: 'generate', checks: [SPF_DOC], targets: { subdomains: false, include: null, exclude: null } },
    expected: {
      policy: { mode: 'generate', targets: { ...EVERY, subdomains: false }, checks: [spfCheck('SPF validity')] },
      problems: [],
    },
  },
  {
    case: 'a label left out or null: the default label',
    props: { mode: PolicyMode.REQUIRE, checks: [{ ...SPF, label: null }] },
    document: { mode: 'require', checks: [{ ...SPF_DOC, label: null }] },
    expected: { policy: { mode: 'require', targets: EVERY, checks: [spfCheck('SPF validity')] }, problems: [] },
  },
  {
    case: 'prefix account, no label: the default label starts with the prefix',
    prefix: 'team-',
    props: { mode: PolicyMode.GENERATE, checks: [SPF] },
    document: { mode: 'generate', checks: [SPF_DOC] },
    expected: { policy: { mode: 'generate', targets: EVERY, checks: [spfCheck('team-SPF validity')] }, problems: [] },
  },
  {
    case: 'prefix account, a label with the prefix: as written',
    prefix: 'team-',
    props: { mode: PolicyMode.GENERATE, checks: [{ ...SPF, label: 'team-spf' }] },
    document: { mode: 'generate', checks: [{ ...SPF_DOC, label: 'team-spf' }] },
    expected: { policy: { mode: 'generate', targets: EVERY, checks: [spfCheck('team-spf')] }, problems: [] },
  },
  {
    case: 'prefix account, a label without the prefix: refused, saying what to write (never rewritten)',
    prefix: 'team-',
    props: { mode: PolicyMode.GENERATE, checks: [{ ...SPF, label: 'spf' }] },
    document: { mode: 'generate', checks: [{ ...SPF_DOC, label: 'spf' }] },
    expected: {
      policy: null,
      problems: [
        'label "spf" does not start with the ownership prefix "team-" of <account>, so its alerts would be outside the scope; write label "team-spf"',
      ],
    },
  },
  {
    case: 'prefix account, a require policy: labels are columns only, no prefix needed',
    prefix: 'team-',
    props: { mode: PolicyMode.REQUIRE, checks: [{ ...SPF, label: 'spf' }] },
    document: { mode: 'require', checks: [{ ...SPF_DOC, label: 'spf' }] },
    expected: { policy: { mode: 'require', targets: EVERY, checks: [spfCheck('spf')] }, problems: [] },
  },
  {
    case: 'two checks with one label, a selection of nothing, a bad pattern',
    props: {
      mode: PolicyMode.GENERATE,
      checks: [SPF, { label: 'SPF validity', certificate: { expiresInDays: 21 } }],
      targets: { domains: false, subdomains: false, exclude: ['http://x'] },
    },
    document: {
      mode: 'generate',
      checks: [
        SPF_DOC,
        { label: 'SPF validity', type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: '21' },
      ],
      targets: { domains: false, subdomains: false, exclude: ['http://x'] },
    },
    expected: {
      policy: null,
      problems: [
        'targets.exclude[0] "http://x" is not a valid pattern; use letters, digits, hyphens, dots and *, e.g. "*.example.com" or "example.*"',
        'targets.domains and targets.subdomains are both false, so the policy covers nothing; leave one of them out',
        'checks[0] and checks[1] are both labelled "SPF validity"; give each check its own label',
      ],
    },
  },
  {
    case: 'targets of the wrong shape',
    props: { mode: PolicyMode.GENERATE, checks: [SPF], targets: { domains: 'yes', include: 'example.com' } },
    document: { mode: 'generate', checks: [SPF_DOC], targets: { domains: 'yes', include: 'example.com' } },
    expected: {
      policy: null,
      problems: [
        'targets.domains is a string; expected true or false',
        'targets.include is a string; expected an array of name patterns',
      ],
    },
  },
  {
    case: 'a threshold chosen when ncalc plans',
    props: { mode: PolicyMode.GENERATE, checks: [{ certificate: { expiresBeforeRenewalFails: true } }] },
    document: {
      mode: 'generate',
      checks: [{ type: 'Certificate (TLS)', filter: 'expires in (days)', threshold: 'before renewal fails' }],
    },
    expected: {
      policy: {
        mode: 'generate',
        targets: EVERY,
        checks: [
          {
            label: 'certificate expiry',
            type: 'Certificate (TLS)',
            subtype: null,
            filter: 'expires in (days)',
            filter_value: '',
            threshold: 'before renewal fails',
          },
        ],
      },
      problems: [],
    },
  },
];

describe('a policy document reads the same through the construct and through ncalc', () => {
  test.each(CASES)('$case', ({ prefix, props, document, expected }) => {
    expect(ncalcSays(document, prefix)).toEqual(expected);
    expect(constructSays(props, prefix)).toEqual(expected);
  });
});

test('a label without the prefix: both doors give the label to write as data too (fix)', () => {
  const document = { mode: 'generate', checks: [{ ...SPF_DOC, label: 'spf' }] };
  const d = readDesired([
    {
      name: 'main',
      json: {
        provider: { networkcalc: [providerBlock('team-')] },
        '//': { networkcalc_alert_policies: { P_1: { path: 'main/P', ...document } } },
      },
    },
  ]);
  expect(d.problems).toEqual([
    expect.objectContaining({
      path: 'stack main, policy main/P',
      field: 'checks[0].label',
      value: 'spf',
      fix: 'team-spf',
    }),
  ]);
  const { app } = tempApp();
  const stack = new TerraformStack(app, 'main');
  new NetworkcalcAccount(stack, 'Account', { ownership: Ownership.prefix('team-') });
  new AlertPolicy(stack, 'P', {
    mode: PolicyMode.GENERATE,
    checks: [{ label: 'spf', spfRecord: { filter: 'validity' } }],
  });
  let problems: unknown;
  try {
    app.synth();
  } catch (err) {
    problems = (err as { problems?: unknown }).problems;
  }
  expect(problems).toEqual([
    expect.objectContaining({ path: 'main/P', field: 'checks[0].label', value: 'spf', fix: 'team-spf' }),
  ]);
  // And through the file a synth run by ncalc hands them over in.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ncalc-problems-'));
  try {
    const file = path.join(dir, 'problems.json');
    writeProblemsFile(problems as ConstructProblem[], { [PROBLEMS_FILE_ENV]: file });
    expect(readProblemsFile(file)).toEqual(problems);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
