/**
 * The same baseline of domains and alerts in two accounts, one stack per account, from zero:
 * each stack declares its domains, so an empty account is provisioned in one apply. Each
 * account reads its own credentials: PROD_NETWORKCALC_TOKEN and STAGING_NETWORKCALC_TOKEN.
 */
import { App, TerraformStack } from 'cdktn';
import { Construct } from 'constructs';
import {
  Alert,
  AlertTarget,
  Domain,
  NetworkcalcAccount,
  ReportTarget,
  ReportTrigger,
} from 'cdktf-provider-networkcalc';

/** What differs between accounts. */
export interface BaselineOptions {
  /**
   * Days before certificate expiry at which the certificate alerts trigger.
   * @default 21
   */
  readonly certificateExpiryDays?: number;
}

/** The domains and alerts every account carries. */
export class Baseline extends Construct {
  constructor(scope: Construct, id: string, options: BaselineOptions) {
    super(scope, id);
    // Declared first: the alerts below name them, and an empty account gets them in the same apply.
    new Domain(this, 'example.com', { name: 'example.com' }).subdomain('www');
    const hosts = [AlertTarget.domain('example.com'), AlertTarget.subdomain('www.example.com')];
    for (const target of hosts) {
      const host = target.name;
      new Alert(this, `${host} A`, {
        name: `${host} A record`,
        target,
        dnsRecord: { record: 'A', filter: 'equals', value: '93.184.215.14' },
      });
      new Alert(this, `${host} SPF`, {
        name: `${host} SPF validity`,
        target,
        spfRecord: { filter: 'validity' },
      });
      new Alert(this, `${host} certificate`, {
        name: `${host} certificate expiry`,
        target,
        certificate: { expiresInDays: options.certificateExpiryDays ?? 21 },
      });
    }
    new Alert(this, 'example.com MX', {
      name: 'example.com MX record',
      target: AlertTarget.domain('example.com'),
      dnsRecord: { record: 'MX', filter: 'contains', value: 'mail.example.com' },
    });
  }
}

export interface AccountStackProps extends BaselineOptions {
  /** Name of the variable holding this account's access token. */
  readonly tokenEnv: string;
}

export class AccountStack extends TerraformStack {
  constructor(scope: Construct, id: string, props: AccountStackProps) {
    super(scope, id);
    new NetworkcalcAccount(this, 'Account', { tokenEnv: props.tokenEnv });
    new Baseline(this, 'Baseline', props);
  }
}

const app = new App();
// The override: production renews certificates earlier, so it warns 30 days ahead.
new AccountStack(app, 'prod', { tokenEnv: 'PROD_NETWORKCALC_TOKEN', certificateExpiryDays: 30 });
const staging = new AccountStack(app, 'staging', { tokenEnv: 'STAGING_NETWORKCALC_TOKEN' });

// An addition for staging only: declare and watch example.org too, and report on it.
const exampleOrg = new Domain(staging, 'ExampleOrg', { name: 'example.org' });
new Alert(staging, 'ExampleOrgCertificate', {
  name: 'example.org certificate expiry',
  target: exampleOrg,
  certificate: { expiresInDays: 7 },
});
new ReportTrigger(staging, 'ExampleOrgReport', { target: ReportTarget.of(exampleOrg) });

app.synth();
