/**
 * Quickstart: one account watching example.com and www.example.com, plus a report.
 * Synthesize with `npx cdktn synth` (or `npx cdktf synth`), here or at the repository root; apply with
 * `ncalc apply` or `cdktn deploy`.
 */
import { App, TerraformOutput, TerraformStack } from 'cdktn';
import { type Construct } from 'constructs';
import { Alert, AlertTarget, NetworkcalcAccount, ReportTarget, ReportTrigger } from 'cdktf-provider-networkcalc';

export class QuickstartStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);

    // Credentials come from NETWORKCALC_TOKEN (or NETWORKCALC_CLIENT_ID / _SECRET) at apply time.
    new NetworkcalcAccount(this, 'Account');

    const targets = {
      Apex: AlertTarget.domain('example.com'),
      Www: AlertTarget.subdomain('www.example.com'),
    };
    for (const [id, target] of Object.entries(targets)) {
      const host = target.name;
      new Alert(this, `${id}A`, {
        name: `${host} A record`,
        target,
        dnsRecord: { record: 'A', filter: 'equals', value: '93.184.215.14' },
      });
      new Alert(this, `${id}Mx`, {
        name: `${host} MX record`,
        target,
        dnsRecord: { record: 'MX', filter: 'contains', value: 'mail.example.com' },
      });
      new Alert(this, `${id}Txt`, {
        name: `${host} TXT record`,
        target,
        dnsRecord: { record: 'TXT', filter: 'contains', value: 'v=spf1' },
      });
      new Alert(this, `${id}Spf`, {
        name: `${host} SPF validity`,
        target,
        spfRecord: { filter: 'validity' },
      });
      new Alert(this, `${id}Certificate`, {
        name: `${host} certificate expiry`,
        target,
        certificate: { expiresInDays: 21 },
      });
    }

    const report = new ReportTrigger(this, 'Report', { target: ReportTarget.domain('example.com') });
    new TerraformOutput(this, 'ReportUrl', { value: report.reportUrl });
  }
}

const app = new App();
new QuickstartStack(app, 'quickstart');
app.synth();
