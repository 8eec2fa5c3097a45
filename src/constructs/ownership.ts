import { claims, type OwnershipMode } from '../accounts/account-rules';

/**
 * Which live alerts of an account `ncalc` manages (its "scope"). Terraform ignores this
 * setting: it manages exactly the resources in its state.
 *
 * @example
 * new NetworkcalcAccount(this, 'TeamA', { ownership: Ownership.prefix('team-a-') });
 */
export class Ownership {
  /**
   * The account holds exactly the declared alerts: `ncalc apply` deletes every other alert.
   * The default.
   */
  public static exclusive(): Ownership {
    return new Ownership('exclusive');
  }

  /**
   * Only alerts whose names start with `prefix` are managed; others are left alone. Every
   * alert declared for the account must then carry the prefix (checked at synth).
   *
   * @example Ownership.prefix('team-a-')
   */
  public static prefix(prefix: string): Ownership {
    return new Ownership('prefix', prefix);
  }

  /** Declared alerts are created and updated; `ncalc apply` never deletes an alert (`ncalc destroy` deletes the declared ones). */
  public static additive(): Ownership {
    return new Ownership('additive');
  }

  /** The wire value of the provider's `ownership` attribute: `exclusive`, `prefix` or `additive`. */
  public readonly mode: OwnershipMode;
  /**
   * The name prefix, for `prefix` ownership only (the provider's `ownership_prefix`). Not
   * called `prefix`: that is the static factory's name, and a name may not be both.
   */
  public readonly namePrefix?: string;

  private constructor(mode: OwnershipMode, prefix?: string) {
    this.mode = mode;
    this.namePrefix = prefix;
  }

  /**
   * True when an alert named `name`, declared for the account, falls inside this scope:
   * always for `exclusive` and `additive` (which claims what it declares), with the prefix for
   * `prefix`.
   */
  public covers(name: string): boolean {
    // Declared, so claimed by `additive`; the set that says so is made only for it (this runs
    // for every alert of the account on each validation).
    const declared = this.mode === 'additive' ? new Set([name]) : undefined;
    return claims({ ownership: this.mode, prefix: this.namePrefix }, name, declared);
  }
}
