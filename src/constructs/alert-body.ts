/**
 * Props → wire body of an alert, free of cdktf so the same mapping can feed other outputs.
 */
import type { DnsRecordFilter, DnsRecordSubtype, SpfRecordFilter } from '../model/matrix';
import { ALERT_TYPE_LIST, COMMON_SOURCES, type CheckProp } from '../model/types';
import type { AlertTarget } from './target';
import { isObject } from '../support/json';
import { unknownKeyMessages } from '../support/unknown-keys';

/** Record types a DNS Record alert watches. */
export type DnsRecordType = DnsRecordSubtype;

/** The comparisons of DNS and SPF record alerts. */
export type ComparisonFilter = DnsRecordFilter;

/**
 * A DNS record condition.
 *
 * @example { record: 'MX', filter: 'contains', value: 'mail.example.com' }
 */
export interface DnsRecordCheck {
  /** The record type watched: `A`, `CNAME`, `MX` or `TXT`. */
  readonly record: DnsRecordType;
  /** How the record is compared with `value`: `equals`, `does not equal`, `contains` or `does not contain`. */
  readonly filter: ComparisonFilter;
  /** The value compared with the record; not empty. */
  readonly value: string;
}

/**
 * An SPF record condition: `{ filter: 'validity' }` (the record must be valid), or a
 * comparison with a value.
 *
 * @example { filter: 'contains', value: 'include:_spf.example.com' }
 */
export interface SpfRecordCheck {
  /** `validity`, or how the SPF record is compared with `value` (`equals`, `does not equal`, `contains`, `does not contain`). */
  readonly filter: SpfRecordFilter;
  /**
   * The value compared with the SPF record; not empty.
   *
   * @default - none: right for `validity`, which takes no value; a comparison without one is an error at synth
   */
  readonly value?: string;
}

/**
 * A TLS certificate condition: exactly one of `subject` and `expiresInDays` (checked at synth).
 *
 * @example { expiresInDays: 21 }
 */
export interface CertificateCheck {
  /**
   * The certificate's subject is compared with this value.
   *
   * @default - the certificate's subject is not checked (give `expiresInDays` instead)
   * @example 'CN=www.example.com'
   */
  readonly subject?: string;
  /**
   * Triggers when the certificate expires within this many days: a positive whole number.
   *
   * @default - the expiry is not checked (give `subject` instead)
   */
  readonly expiresInDays?: number;
}

/** What every alert has. */
export interface AlertBaseProps {
  /**
   * Display name. `ncalc` identifies an alert by its name within its account, so it must be
   * unique there (compared after trimming surrounding blanks).
   *
   * @example 'example.com MX'
   */
  readonly name: string;

  /**
   * The domain or subdomain watched.
   *
   * @example AlertTarget.subdomain('www.example.com')
   */
  readonly target: AlertTarget;
}

/**
 * An alert without its account: a name, a target and exactly one of `dnsRecord`,
 * `spfRecord` or `certificate` (two, or none, is an error at synth).
 */
export interface AlertCheckSpec extends AlertBaseProps {
  /**
   * A DNS record condition.
   *
   * @default - not a DNS record alert
   */
  readonly dnsRecord?: DnsRecordCheck;
  /**
   * An SPF record condition.
   *
   * @default - not an SPF record alert
   */
  readonly spfRecord?: SpfRecordCheck;
  /**
   * A TLS certificate condition.
   *
   * @default - not a certificate alert
   */
  readonly certificate?: CertificateCheck;
}

/** @deprecated use AlertCheckSpec (or AlertProps): one interface with exactly one check set. */
export type DnsRecordAlertSpec = AlertCheckSpec;
/** @deprecated use AlertCheckSpec (or AlertProps). */
export type SpfRecordAlertSpec = AlertCheckSpec;
/** @deprecated use AlertCheckSpec (or AlertProps). */
export type CertificateAlertSpec = AlertCheckSpec;
/** @deprecated use SpfRecordCheck. */
export type SpfValidityCheck = SpfRecordCheck;
/** @deprecated use SpfRecordCheck. */
export type SpfComparisonCheck = SpfRecordCheck;
/** @deprecated use CertificateCheck. */
export type CertificateSubjectCheck = CertificateCheck;
/** @deprecated use CertificateCheck. */
export type CertificateExpiryCheck = CertificateCheck;

export interface AlertBody {
  /** Wire fields except target_id, which depends on how the target resolves. */
  readonly body: Record<string, unknown>;
  /** Which prop each wire field came from, for messages. */
  readonly sources: Readonly<Record<string, string>>;
  /** Contradictions the wire body cannot show (two variants, both certificate checks). */
  readonly problems: string[];
}

/** Each type's check prop; one that `AlertCheckSpec` does not declare does not compile. */
const VARIANTS: readonly (keyof AlertCheckSpec & CheckProp)[] = ALERT_TYPE_LIST.map((m) => m.prop);

/** The props of each check, as its interface has them (the compiler holds the lists to them). */
const keysOf = <T>(keys: Record<keyof T, true>) => Object.keys(keys);
const CHECK_KEYS = {
  dnsRecord: keysOf<DnsRecordCheck>({ record: true, filter: true, value: true }),
  spfRecord: keysOf<SpfRecordCheck>({ filter: true, value: true }),
  certificate: keysOf<CertificateCheck>({ subject: true, expiresInDays: true }),
};

/** The props of an alert check spec: name, target and the checks. */
export const ALERT_CHECK_SPEC_KEYS = keysOf<AlertCheckSpec>({
  name: true,
  target: true,
  dnsRecord: true,
  spfRecord: true,
  certificate: true,
});

/**
 * Props of the check objects (`dnsRecord`, `spfRecord`, `certificate`) that their interfaces do
 * not have, one sentence each. `at`: where the spec stands (`checks[0]`); `certificateKeys`: the
 * certificate's props where they are more than an alert's (a policy's).
 */
export function unknownCheckProps(
  spec: object,
  at = '',
  certificateKeys: readonly string[] = CHECK_KEYS.certificate,
): string[] {
  const loose = spec as Record<string, unknown>;
  const messages: string[] = [];
  for (const variant of VARIANTS) {
    const check = loose[variant];
    const keys = variant === 'certificate' ? certificateKeys : CHECK_KEYS[variant];
    if (isObject(check)) messages.push(...unknownKeyMessages(check, keys, at ? `${at}.${variant}` : variant));
  }
  return messages;
}

/** The certificate props of an alert, for a construct whose certificate check takes more. */
export const CERTIFICATE_CHECK_KEYS: readonly string[] = CHECK_KEYS.certificate;

const isGiven = (v: unknown) => v !== undefined && v !== null;

/** The wire sources of an alert without a check. */
const NO_SOURCES = Object.freeze({ ...COMMON_SOURCES });

/**
 * Maps typed props to the alert's wire fields, through the module of the type whose prop is
 * given (src/model/types). Values are passed through for the model to judge.
 */
export function alertBody(props: AlertCheckSpec): AlertBody {
  const loose = props as unknown as Record<string, unknown>;
  const problems: string[] = [];
  const body: Record<string, unknown> = { name: props.name };
  let sources: Readonly<Record<string, string>> = NO_SOURCES;

  const given = VARIANTS.filter((v) => isGiven(loose[v]));
  if (given.length !== 1) {
    problems.push(
      given.length === 0
        ? `no check given; set exactly one of ${VARIANTS.join(', ')}`
        : `${given.join(' and ')} are given together; set exactly one of ${VARIANTS.join(', ')}`,
    );
  }
  const module = ALERT_TYPE_LIST.find((m) => isGiven(loose[m.prop]));
  if (module) {
    const check = module.body(loose[module.prop] as Record<string, unknown>);
    body.type = module.type;
    Object.assign(body, check.fields);
    sources = check.sources;
    problems.push(...check.problems);
  }
  body.target_type = props.target?.targetType;
  return { body, sources, problems };
}
