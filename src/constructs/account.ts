import { TerraformStack, Token } from '../cdk';
import { Construct, type IConstruct } from 'constructs';
import { NetworkcalcProvider } from '../gen/providers/networkcalc/provider';
import { OWNERSHIP_MODES, parseProviderBlock, type BlockProblem, type ProviderField } from '../accounts/account-rules';
import { Ownership } from './ownership';
import { DomainLookup, SubdomainLookup, domainNameProblems, lookupKey } from './lookup';
import { terraformLiteral } from './terraform-string';
import type { Problem } from '../model/problems';
import { addChecks, ensureValidateFirst, finding, propsObject, renderable, unknownProps } from './validation';

/** The prop that sets each attribute of the provider block, as messages name it. */
const PROP: Readonly<Record<ProviderField, string>> = {
  alias: 'alias',
  base_url: 'baseUrl',
  token: 'token',
  client_id: 'clientId',
  client_secret: 'clientSecret',
  token_env: 'tokenEnv',
  client_id_env: 'clientIdEnv',
  client_secret_env: 'clientSecretEnv',
  ownership: 'ownership',
  ownership_prefix: 'prefix',
  max_retries: 'maxRetries',
  timeout_seconds: 'timeoutSeconds',
};

/**
 * Connection to one NetworkCalc account. No prop takes a secret: credentials are read at
 * plan/apply time from environment variables whose *names* are given here, so nothing
 * secret is ever written to the synthesized JSON.
 */
export interface NetworkcalcAccountProps {
  /**
   * Terraform provider alias. Needed when one stack holds several accounts; resources of an
   * aliased account carry `provider = "networkcalc.<alias>"`.
   *
   * @default - the default (unaliased) provider configuration of the stack
   * @example 'prod'
   */
  readonly alias?: string;

  /**
   * Base URL of the API, e.g. the local emulator.
   *
   * @default - `$NETWORKCALC_BASE_URL` at plan/apply time, then https://networkcalc.com
   * @example 'http://127.0.0.1:8787'
   */
  readonly baseUrl?: string;

  /**
   * Name of the environment variable that holds a ready access token. An account that names
   * any credential variable reads only the variables it names: the NETWORKCALC_* defaults
   * apply only when none of `tokenEnv`, `clientIdEnv` and `clientSecretEnv` is given, so a
   * default variable meant for another account is never used for this one.
   *
   * @default - 'NETWORKCALC_TOKEN' when no credential variable is named; otherwise no token
   * @example 'PROD_NETWORKCALC_TOKEN'
   */
  readonly tokenEnv?: string;

  /**
   * Name of the environment variable that holds the client id, exchanged with the client
   * secret for a token when no token is set. Give it together with `clientSecretEnv`.
   *
   * @default - 'NETWORKCALC_CLIENT_ID' when no credential variable is named; otherwise no client credentials
   */
  readonly clientIdEnv?: string;

  /**
   * Name of the environment variable that holds the client secret. Give it together with
   * `clientIdEnv`.
   *
   * @default - 'NETWORKCALC_CLIENT_SECRET' when no credential variable is named; otherwise no client credentials
   */
  readonly clientSecretEnv?: string;

  /**
   * Which live alerts of the account `ncalc` manages.
   *
   * @default Ownership.exclusive() - the account holds exactly the declared alerts
   * @example Ownership.prefix('team-a-')
   */
  readonly ownership?: Ownership;

  /**
   * Attempts per request on 429, 5xx and connection errors, the first included: a whole
   * number from 1 to 20 (provider `max_retries`).
   *
   * @default - 5 attempts (nothing written)
   */
  readonly maxRetries?: number;

  /**
   * Time limit of one HTTP request, in seconds: more than 0 and at most 3600 (provider
   * `timeout_seconds`).
   *
   * @default - 30 seconds (nothing written)
   */
  readonly timeoutSeconds?: number;
}

const ACCOUNT_PROPS: Record<keyof NetworkcalcAccountProps, true> = {
  alias: true,
  baseUrl: true,
  tokenEnv: true,
  clientIdEnv: true,
  clientSecretEnv: true,
  ownership: true,
  maxRetries: true,
  timeoutSeconds: true,
};

/**
 * One NetworkCalc account: wraps the `networkcalc` provider configuration (child id
 * `Resource`). Alerts and report triggers of a stack with exactly one account use it by
 * default.
 *
 * @example
 * const account = new NetworkcalcAccount(this, 'Account', {
 *   tokenEnv: 'PROD_NETWORKCALC_TOKEN',
 *   ownership: Ownership.prefix('baseline-'),
 * });
 */
export class NetworkcalcAccount extends Construct {
  /** True for a NetworkcalcAccount, also across copies of this package. */
  public static isNetworkcalcAccount(x: unknown): x is NetworkcalcAccount {
    return typeof x === 'object' && x !== null && ACCOUNT_SYMBOL in x;
  }

  /**
   * The account that constructs in `scope` use by default: the only account declared in
   * the stack of `scope`. Returns `undefined` when the stack has none or several.
   */
  public static tryOf(scope: IConstruct): NetworkcalcAccount | undefined {
    const found = accountsIn(TerraformStack.of(scope));
    return found.length === 1 ? found[0] : undefined;
  }

  /** The provider alias, if any. */
  public readonly alias?: string;
  /** The ownership scope of the account. */
  public readonly ownership: Ownership;
  /** Name of the variable holding the token; undefined when the account reads no token. */
  public readonly tokenEnv?: string;
  /** Name of the variable holding the client id; undefined when the account reads no client credentials. */
  public readonly clientIdEnv?: string;
  /** Name of the variable holding the client secret; undefined when the account reads no client credentials. */
  public readonly clientSecretEnv?: string;
  /** The base URL, when one was given. */
  public readonly baseUrl?: string;
  /** Attempts per request, when given. */
  public readonly maxRetries?: number;
  /** Time limit of one request in seconds, when given. */
  public readonly timeoutSeconds?: number;

  private readonly provider: NetworkcalcProvider;
  private readonly lookups = new Map<string, DomainLookup | SubdomainLookup>();
  /** By kind, then by the name exactly as given (no string built per alert to find it). */
  private readonly lookupsAsGiven = {
    domain: new Map<unknown, DomainLookup | SubdomainLookup>(),
    subdomain: new Map<unknown, DomainLookup | SubdomainLookup>(),
  };
  private readonly members: Array<{ alert: IConstruct; name: string }> = [];

  constructor(scope: Construct, id: string, props: NetworkcalcAccountProps = {}) {
    super(scope, id);
    Object.defineProperty(this, ACCOUNT_SYMBOL, { value: true });
    const stack = ensureValidateFirst(this);
    ACCOUNTS.set(stack, [...accountsIn(stack), this]);
    const given = propsObject<NetworkcalcAccountProps>(
      props ?? {},
      'alias, baseUrl, tokenEnv, clientIdEnv, clientSecretEnv, ownership, maxRetries, timeoutSeconds; all optional',
    );
    const p = given.props;
    // A subclass may pass props of its own.
    const unknown = new.target === NetworkcalcAccount && !given.problem ? unknownProps(p, ACCOUNT_PROPS) : [];
    // Anything but an Ownership is reported below; exclusive stands in so the rest can run.
    const ownershipGiven = p.ownership !== undefined && !isOwnership(p.ownership);
    this.ownership = p.ownership !== undefined && isOwnership(p.ownership) ? p.ownership : Ownership.exclusive();

    // The rules every front door applies to a provider block (src/accounts/account-rules), in
    // this construct's prop names. Tokens (e.g. a TerraformVariable) are Terraform's to check.
    const { config, problems } = parseProviderBlock(
      {
        alias: p.alias,
        base_url: p.baseUrl,
        token_env: p.tokenEnv,
        client_id_env: p.clientIdEnv,
        client_secret_env: p.clientSecretEnv,
        ownership: this.ownership.mode,
        ownership_prefix: this.ownership.namePrefix,
        max_retries: p.maxRetries,
        timeout_seconds: p.timeoutSeconds,
      },
      { label: (field) => PROP[field], isUnknown: (v) => Token.isUnresolved(v) },
    );
    this.alias = config.alias ?? undefined;
    this.baseUrl = config.baseUrl ?? undefined;
    // An invalid variable name falls back to the default, so a secret pasted there never
    // reaches the L1 (the synth fails on the problem anyway).
    this.tokenEnv = config.tokenEnv ?? undefined;
    this.clientIdEnv = config.clientIdEnv ?? undefined;
    this.clientSecretEnv = config.clientSecretEnv ?? undefined;
    this.maxRetries = config.maxRetries ?? undefined;
    this.timeoutSeconds = config.timeoutSeconds ?? undefined;

    // The variables are written out (the defaults too, for an account that names none) so that
    // the JSON alone says where credentials come from, and only those: a block that names its
    // token gets no client credential defaults. Values are literal text, escaped for
    // Terraform's template syntax.
    this.provider = new NetworkcalcProvider(this, 'Resource', {
      alias: renderable(this.alias),
      baseUrl: renderable(terraformLiteral(this.baseUrl)),
      tokenEnv: renderable(terraformLiteral(this.tokenEnv)),
      clientIdEnv: renderable(terraformLiteral(this.clientIdEnv)),
      clientSecretEnv: renderable(terraformLiteral(this.clientSecretEnv)),
      ownership: this.ownership.mode,
      ownershipPrefix:
        this.ownership.mode === 'prefix' ? renderable(terraformLiteral(this.ownership.namePrefix)) : undefined,
      maxRetries: renderable(this.maxRetries),
      timeoutSeconds: renderable(this.timeoutSeconds),
    });

    addChecks(this, () => {
      if (given.problem) return [given.problem];
      const errors = [...unknown, ...problems.map(blockFinding)];
      if (ownershipGiven) {
        errors.push(
          finding(
            `ownership ${JSON.stringify(p.ownership) ?? String(p.ownership)} is not valid; give Ownership.exclusive(), Ownership.prefix('team-a-') or Ownership.additive()`,
            'ownership',
            p.ownership,
          ),
        );
      }
      errors.push(...this.validateAccount());
      return errors;
    });
  }

  /**
   * The provider configuration alerts of this account are bound to.
   * @internal
   */
  public get _provider(): NetworkcalcProvider {
    return this.provider;
  }

  /**
   * A domain of this account by name; one `networkcalc_domain` data source per name
   * (compared ignoring case and surrounding blanks), however often it is asked for.
   *
   * @example account.lookupDomain('example.com').domainId
   */
  public lookupDomain(name: string): DomainLookup {
    return this.lookup('domain', name) as DomainLookup;
  }

  /**
   * A subdomain of this account by its full name; one `networkcalc_subdomain` data source
   * per name.
   *
   * @example account.lookupSubdomain('www.example.com').subdomainId
   */
  public lookupSubdomain(name: string): SubdomainLookup {
    return this.lookup('subdomain', name) as SubdomainLookup;
  }

  /**
   * Registers an alert of this account for the checks that span alerts (unique names,
   * ownership prefix).
   * @internal
   */
  public _registerAlert(alert: IConstruct, name: string): void {
    this.members.push({ alert, name });
  }

  private lookup(kind: 'domain' | 'subdomain', name: string): DomainLookup | SubdomainLookup {
    // Most alerts of an app name their target the same way: the name as given is looked up
    // first, before it is canonicalized.
    const asGiven = this.lookupsAsGiven[kind];
    const known = asGiven.get(name);
    if (known) return known;
    const key = `${kind}:${typeof name === 'string' ? lookupKey(name) : String(name)}`;
    let found = this.lookups.get(key);
    if (!found) {
      // The id is the name itself: stable, readable, and unique per account.
      const id = `${kind === 'domain' ? 'Domain' : 'Subdomain'} ${key.slice(kind.length + 1)}`;
      const trimmed = typeof name === 'string' ? name.trim() : name;
      const provider = this.alias ? this.provider : undefined;
      found =
        kind === 'domain'
          ? new DomainLookup(this, id, trimmed, provider)
          : new SubdomainLookup(this, id, trimmed, provider);
      const problems = domainNameProblems(kind, name);
      if (problems.length) addChecks(found, () => problems.map((m) => finding(m, 'name', name ?? null)));
      this.lookups.set(key, found);
    }
    asGiven.set(name, found);
    return found;
  }

  /** The checks that span constructs: aliases in the stack, alert names in the account. */
  private validateAccount(): Problem[] {
    const errors: Problem[] = [];
    const stack = TerraformStack.of(this);
    const siblings = accountsIn(stack);
    const sameAlias = siblings.filter((a) => a !== this && (a.alias ?? '') === (this.alias ?? ''));
    if (sameAlias.length) {
      const what = this.alias === undefined ? 'no alias' : `alias ${JSON.stringify(this.alias)}`;
      errors.push(
        finding(
          `stack ${stack.node.path} has several accounts with ${what} (${[this, ...sameAlias].map((a) => a.node.path).join(', ')}); give each account of a stack its own alias`,
          'alias',
          this.alias ?? null,
        ),
      );
    }

    // Alert names identify alerts within the account: compare their canonical (trimmed) form.
    // A construct's path is worked out (a walk up the tree) only for a message.
    const first = new Map<string, IConstruct>();
    const repeated = new Map<string, IConstruct[]>();
    for (const { alert, name } of this.members) {
      const seen = first.get(name);
      if (seen === undefined) first.set(name, alert);
      else {
        const all = repeated.get(name);
        if (all) all.push(alert);
        else repeated.set(name, [seen, alert]);
      }
      if (!this.ownership.covers(name)) {
        errors.push(
          finding(
            `alert ${alert.node.path} is named ${JSON.stringify(name)}, outside this account's ownership prefix ${JSON.stringify(this.ownership.namePrefix)}; ncalc would never manage it. Start the name with the prefix or change the ownership`,
            'ownership',
            this.ownership.namePrefix,
          ),
        );
      }
    }
    // In the order the names were first used.
    if (repeated.size) {
      for (const name of first.keys()) {
        const alerts = repeated.get(name);
        if (!alerts) continue;
        errors.push(
          finding(
            `alert name ${JSON.stringify(name)} is used by ${alerts.length} alerts of this account: ${alerts.map((a) => a.node.path).join(', ')}; names identify alerts within an account and must be unique`,
            null,
            name,
          ),
        );
      }
    }
    return errors;
  }
}

/** A problem of the provider block as a finding of this construct, on the prop that set it. */
function blockFinding(p: BlockProblem): Problem {
  // The prefix is set through the ownership prop (Ownership.prefix('…')).
  return finding(p.message, p.field === 'ownership_prefix' ? 'ownership' : PROP[p.field], p.value);
}

/** True for an Ownership, also from another copy of this package. */
function isOwnership(x: unknown): x is Ownership {
  return (
    typeof x === 'object' &&
    x !== null &&
    (OWNERSHIP_MODES as readonly unknown[]).includes((x as Ownership).mode) &&
    typeof (x as Ownership).covers === 'function'
  );
}

const ACCOUNT_SYMBOL = Symbol.for('cdktf-provider-networkcalc.NetworkcalcAccount');

/** Accounts by the stack they are declared in; avoids walking the tree per alert. */
const ACCOUNTS = new WeakMap<TerraformStack, NetworkcalcAccount[]>();

function accountsIn(stack: TerraformStack): NetworkcalcAccount[] {
  return ACCOUNTS.get(stack) ?? [];
}

/**
 * The account a construct in `scope` belongs to: `explicit` when given (it must be in the
 * same stack), else the only account of the stack (`stack`: the stack of `scope`, when the
 * caller has it already). `problem` says why there is none.
 * @internal
 */
export function resolveAccount(
  scope: IConstruct,
  explicit: NetworkcalcAccount | undefined,
  stack: TerraformStack = TerraformStack.of(scope),
): { account?: NetworkcalcAccount; problem?: string } {
  if (explicit !== undefined && explicit !== null && !NetworkcalcAccount.isNetworkcalcAccount(explicit)) {
    return {
      problem: `account ${JSON.stringify(explicit) ?? String(explicit)} is not a NetworkcalcAccount; pass the account construct (new NetworkcalcAccount(stack, 'Account')), or leave account out to use the only account of the stack`,
    };
  }
  if (explicit !== undefined && explicit !== null) {
    const home = TerraformStack.of(explicit);
    if (home !== stack) {
      return {
        problem: `account ${explicit.node.path} is in stack ${home.node.path}, but this construct is in stack ${stack.node.path}; an account serves only the stack it is declared in, so declare a NetworkcalcAccount in ${stack.node.path}`,
      };
    }
    return { account: explicit };
  }
  const found = accountsIn(stack);
  if (found.length === 1) return { account: found[0] };
  if (found.length === 0) {
    return {
      problem: `no NetworkcalcAccount in stack ${stack.node.path}; declare one before the alerts and report triggers of the stack (new NetworkcalcAccount(stack, 'Account')) or pass \`account\``,
    };
  }
  return {
    problem: `stack ${stack.node.path} has ${found.length} accounts (${found.map((a) => a.node.path).join(', ')}); pass \`account\` to choose one`,
  };
}
