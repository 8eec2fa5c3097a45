import { TerraformStack } from 'cdktf';
import * as fs from 'fs';
import * as path from 'path';
import { Alert, AlertTarget, NetworkcalcAccount, ReportTarget, ReportTrigger } from '../../src/constructs';
import { listFiles, synthError, tempApp } from './support';

describe('an invalid app writes nothing', () => {
  test('why: cdktf alone writes the stacks before a failing one', () => {
    const { app, outdir } = tempApp();
    new TerraformStack(app, 'a');
    const b = new TerraformStack(app, 'b');
    b.node.addValidation({ validate: () => ['broken'] });
    expect(synthError(app)).toContain('[b] broken');
    // If this starts failing, cdktf validates first and our guard could go.
    expect(listFiles(outdir)).toEqual([path.join('stacks', 'a', 'cdk.tf.json')]);
  });

  test('GIVEN a valid first stack and an invalid second stack WHEN app.synth() THEN it throws and no stack JSON exists', () => {
    const { app, outdir } = tempApp();
    const good = new TerraformStack(app, 'good');
    new NetworkcalcAccount(good, 'Account');
    new Alert(good, 'Fine', { name: 'fine', target: AlertTarget.domainId(1), spfRecord: { filter: 'validity' } });
    const bad = new TerraformStack(app, 'bad');
    new NetworkcalcAccount(bad, 'Account');
    new Alert(bad, 'Broken', { name: 'broken', target: AlertTarget.domainId(1), certificate: { expiresInDays: 0 } });

    const message = synthError(app);

    expect(message).toContain('[bad/Broken] filter_value "0" is not valid for filter "expires in (days)"');
    expect(message).toContain('Nothing was written.');
    // cdktf creates the directories in `new App()`; no file may be in them.
    expect(listFiles(outdir)).toEqual([]);
  });

  test('GIVEN an invalid stack declared first THEN likewise nothing is written', () => {
    const { app, outdir } = tempApp();
    const bad = new TerraformStack(app, 'a-bad');
    new Alert(bad, 'NoAccount', { name: 'x', target: AlertTarget.domainId(1), spfRecord: { filter: 'validity' } });
    const good = new TerraformStack(app, 'b-good');
    new NetworkcalcAccount(good, 'Account');
    new ReportTrigger(good, 'Report', { target: ReportTarget.domainId(1) });
    expect(synthError(app)).toContain('[a-bad/NoAccount] no NetworkcalcAccount in stack a-bad');
    expect(listFiles(outdir)).toEqual([]);
  });

  test('GIVEN a valid app THEN every stack and the manifest are written', () => {
    const { app, outdir } = tempApp();
    for (const id of ['one', 'two']) {
      const stack = new TerraformStack(app, id);
      new NetworkcalcAccount(stack, 'Account');
      new Alert(stack, 'A', {
        name: 'a',
        target: AlertTarget.domain('example.com'),
        spfRecord: { filter: 'validity' },
      });
    }
    expect(synthError(app)).toBe('');
    expect(listFiles(outdir)).toEqual([
      'manifest.json',
      path.join('stacks', 'one', 'cdk.tf.json'),
      path.join('stacks', 'two', 'cdk.tf.json'),
    ]);
    const json = fs.readFileSync(path.join(outdir, 'stacks', 'one', 'cdk.tf.json'), 'utf8');
    // The validation element leaves no trace in the output.
    expect(json).not.toContain('NetworkcalcValidateFirst');
  });
});

describe('validation scales with the app, not with stacks × app', () => {
  test('GIVEN 40 stacks WHEN app.synth() THEN a construct of the first stack is validated a fixed number of times', () => {
    const { app, outdir } = tempApp();
    const counts: number[] = [];
    for (let i = 0; i < 40; i++) {
      const stack = new TerraformStack(app, `s${i}`);
      new NetworkcalcAccount(stack, 'Account');
      const alert = new Alert(stack, 'A', {
        name: 'a',
        target: AlertTarget.domain('example.com'),
        spfRecord: { filter: 'validity' },
      });
      counts.push(0);
      alert.node.addValidation({ validate: () => (counts[i]!++, []) });
    }
    expect(synthError(app)).toBe('');
    expect(listFiles(outdir)).toHaveLength(41);
    // Once before anything is written (ours), once as cdktf writes the stack. Walking the whole
    // app from every stack validated each construct once per stack (40 times here).
    expect(new Set(counts)).toEqual(new Set([2]));
  });

  test('GIVEN problems in two stacks and in the app itself THEN one error lists every one and nothing is written', () => {
    const { app, outdir } = tempApp();
    for (const id of ['a', 'b', 'c']) {
      const stack = new TerraformStack(app, id);
      new NetworkcalcAccount(stack, 'Account');
      new Alert(stack, 'Check', {
        name: 'check',
        target: AlertTarget.domainId(1),
        certificate: { expiresInDays: id === 'b' ? 1 : 0 },
      });
    }
    app.node.addValidation({ validate: () => ['the app is broken'] });
    const message = synthError(app);
    expect(message).toContain('[a/Check] filter_value "0"');
    expect(message).toContain('[c/Check] filter_value "0"');
    expect(message).not.toContain('[b/Check]');
    expect(message).toContain('the app is broken');
    expect(listFiles(outdir)).toEqual([]);
  });
});

describe('no secret reaches the output', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  test('GIVEN credentials in the environment during synth THEN no output file contains them', () => {
    const values = {
      NETWORKCALC_TOKEN: 'sekret-xyz',
      NETWORKCALC_CLIENT_ID: 'demo-client',
      NETWORKCALC_CLIENT_SECRET: 'demo-secret',
      TEAM_TOKEN: 'sekret-team-token',
      NETWORKCALC_BASE_URL: 'https://user:sekret-url@networkcalc.example',
    };
    Object.assign(process.env, values);
    const { app, outdir } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    const account = new NetworkcalcAccount(stack, 'Default');
    const team = new NetworkcalcAccount(stack, 'Team', { alias: 'team', tokenEnv: 'TEAM_TOKEN' });
    for (const a of [account, team]) {
      new Alert(stack, `${a.node.id}Alert`, {
        name: 'x',
        account: a,
        target: AlertTarget.domain('example.com'),
        spfRecord: { filter: 'validity' },
      });
      new ReportTrigger(stack, `${a.node.id}Report`, { account: a, target: ReportTarget.subdomain('www.example.com') });
    }
    // Two unaliased accounts would be an error; the default one stays unaliased on purpose.
    expect(synthError(app)).toBe('');
    const written = listFiles(outdir);
    expect(written).toContain(path.join('stacks', 'stack', 'cdk.tf.json'));
    for (const file of written) {
      const text = fs.readFileSync(path.join(outdir, file), 'utf8');
      for (const [name, value] of Object.entries(values)) {
        expect({ file, name, leaked: text.includes(value) }).toEqual({ file, name, leaked: false });
      }
    }
  });
});
