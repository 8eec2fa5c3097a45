/**
 * Coverage: rules over every domain of the account instead of one alert per domain.
 * `ncalc` expands the policies when it plans, from the account's domains list, so a domain
 * added in the NetworkCalc console gets its alerts on the next apply. Apply with `ncalc`
 * (policies are ncalc's: `cdktn deploy` ignores them).
 */
import { App, TerraformStack } from 'cdktn';
import type { Construct } from 'constructs';
import { Alert, AlertPolicy, AlertTarget, NetworkcalcAccount, PolicyMode } from 'cdktf-provider-networkcalc';

export class CoverageStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);

    new NetworkcalcAccount(this, 'Account');

    // Every domain and subdomain: certificate expiry at 21 days and SPF validity, created by
    // ncalc and named `<label> · <host>` ("certificate expiry · www.example.com").
    new AlertPolicy(this, 'Baseline', {
      mode: PolicyMode.GENERATE,
      checks: [{ certificate: { expiresInDays: 21 } }, { spfRecord: { filter: 'validity' } }],
      targets: { exclude: ['legacy.*'] },
    });

    // Every domain must have an MX alert, which its team declares: nothing is created for it,
    // and `ncalc plan`, `drift` and `coverage` report the domains that have none.
    new AlertPolicy(this, 'MailRequired', {
      mode: PolicyMode.REQUIRE,
      checks: [{ label: 'MX', dnsRecord: { record: 'MX', filter: 'contains', value: 'mail.example.com' } }],
      targets: { subdomains: false },
    });

    new Alert(this, 'ApexMx', {
      name: 'example.com MX',
      target: AlertTarget.domain('example.com'),
      dnsRecord: { record: 'MX', filter: 'contains', value: 'mail.example.com' },
    });
  }
}

const app = new App();
new CoverageStack(app, 'coverage');
app.synth();
