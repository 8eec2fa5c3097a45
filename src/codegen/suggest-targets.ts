/**
 * `drift --suggest` for domains and subdomains added in the console: the declaration that
 * would adopt each (a `Domain` / `Subdomain` construct, or a networkcalc_domain /
 * networkcalc_subdomain resource with its import block), as one line without an edit, since
 * where a target belongs in the app (which stack, beside which alerts) is the user's choice.
 * Only for accounts whose app declares targets: an app that looks its targets up by name
 * owns none, so the account's other targets are not drift of it.
 */
import type { AccountPlan } from '../plan/account-plan';
import { indexDomains } from '../plan/targets';
import { fullNameOrNull } from '../plan/target-changes';
import type { DeclaredTarget } from '../plan/types';
import { tsString } from '../contract/alert-props';
import { constructId, hclName, hclString } from './export';
import type { Suggestion } from './suggestion';

export function suggestUndeclaredTargets(
  plans: readonly AccountPlan[],
  targets: readonly DeclaredTarget[],
): Suggestion[] {
  const out: Suggestion[] = [];
  for (const plan of plans) {
    if (plan.status !== 'ok' || !plan.domains) continue;
    const keys = new Set(plan.account.scopes.map((s) => s.key));
    const own = targets.filter((t) => keys.has(t.scopeKey));
    if (!own.length) continue;
    const index = indexDomains(plan.domains);
    const declared = new Set(own.map((t) => fullNameOrNull(t, index)).filter((n): n is string => n !== null));
    // Under exclusive ownership the plan deletes what the app does not declare: said so, not "left in place".
    const deleting = new Set(
      (plan.targetChanges ?? []).flatMap((c) => (c.action === 'delete' ? [`${c.targetType}:${c.id}`] : [])),
    );
    const used = new Set<string>();
    const usedHcl = new Set<string>();
    const suggest = (kind: 'domain' | 'subdomain', id: number, name: string, declaration: string, hcl: string) =>
      out.push({
        kind: 'undeclared',
        account: plan.account.label,
        alert: name,
        path: null,
        file: null,
        line: null,
        summary: `${kind} ${JSON.stringify(name)} (id ${id}) was added in the console and the app does not declare it (${deleting.has(`${kind}:${id}`) ? 'ncalc apply deletes it: the account is owned exclusively' : 'ncalc leaves it in place'}); to keep it, declare ${declaration}, or in HCL ${hcl} with an import block of id "${id}"`,
        edits: [],
        diff: null,
        target: kind,
      });
    const q = (text: string) => tsString(text, "'");
    for (const d of plan.domains) {
      if (!declared.has(d.domain.toLowerCase()))
        suggest(
          'domain',
          d.id,
          d.domain,
          `new Domain(this, ${q(constructId(d.domain, used))}, { name: ${q(d.domain)} })`,
          `resource "networkcalc_domain" "${hclName(d.domain, usedHcl)}" { name = ${hclString(d.domain)} }`,
        );
      // The domain by name: the account's declared Domain of that name when there is one.
      for (const s of d.subdomains)
        if (!declared.has(s.subdomain.toLowerCase()))
          suggest(
            'subdomain',
            s.id,
            s.subdomain,
            `new Subdomain(this, ${q(constructId(s.subdomain, used))}, { domain: ${q(d.domain)}, prefix: ${q(s.prefix)} })`,
            `resource "networkcalc_subdomain" "${hclName(s.subdomain, usedHcl)}" { domain_id = ${d.id}, prefix = ${hclString(s.prefix)} }`,
          );
    }
  }
  return out;
}
