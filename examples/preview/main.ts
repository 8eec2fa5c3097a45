/**
 * Would these alerts fire? `ncalc preview` evaluates each one now, with DNS and TLS lookups
 * from the machine that runs it, before anything is created: fires now, quiet, or cannot
 * evaluate (and why), with what it observed.
 */
import { App, TerraformStack } from 'cdktn';
import type { Construct } from 'constructs';
import { Alert, AlertPolicy, AlertTarget, NetworkcalcAccount, PolicyMode } from 'cdktf-provider-networkcalc';

export class PreviewStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);

    new NetworkcalcAccount(this, 'Account');

    // Fires when the MX records do not include the expected host ("MX is …, not …").
    new Alert(this, 'ApexMx', {
      name: 'example.com MX moved',
      target: AlertTarget.domain('example.com'),
      dnsRecord: { record: 'MX', filter: 'does not equal', value: 'mail.example.com' },
    });

    // Fires when the SPF record breaks RFC 7208 (two records, a syntax error, more than 10
    // DNS-querying terms, more than 2 void lookups, an include that does not resolve).
    new Alert(this, 'ApexSpf', {
      name: 'example.com SPF valid',
      target: AlertTarget.domain('example.com'),
      spfRecord: { filter: 'validity' },
    });

    // A fixed threshold: preview warns when it fires before the certificate is renewed (at a
    // third of its lifetime left), and names the largest threshold that would not.
    new Alert(this, 'WwwCert', {
      name: 'www certificate expiry',
      target: AlertTarget.subdomain('www.example.com'),
      certificate: { expiresInDays: 30 },
    });

    // Thresholds chosen per target when ncalc plans, from the certificate each one serves:
    // 15 days for a 47-day certificate, 33 for 100 days, 66 for 200 days.
    new AlertPolicy(this, 'Renewal', {
      mode: PolicyMode.GENERATE,
      checks: [{ label: 'renewal failed', certificate: { expiresBeforeRenewalFails: true } }],
      targets: { domains: false },
    });
  }
}

const app = new App();
new PreviewStack(app, 'preview');
app.synth();
