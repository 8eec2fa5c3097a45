/**
 * A neutral description of the provider schema. It prints as `terraform providers schema
 * -json` (for @cdktf/provider-generator) and converts to tfplugin6 Schema messages (for the
 * provider), so both front doors read the same definition.
 */

/** A cty type expression in the JSON form terraform prints. */
export type TypeExpr =
  | 'string'
  | 'number'
  | 'bool'
  | readonly ['map', TypeExpr]
  | readonly ['list', TypeExpr]
  | readonly ['set', TypeExpr]
  | readonly ['object', Readonly<Record<string, TypeExpr>>];

export interface AttributeSchema {
  readonly type: TypeExpr;
  /** Shown in docs, in the generated bindings' JSDoc and in terraform's output. */
  readonly description: string;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  readonly sensitive?: boolean;
  /** A change of this attribute replaces the resource (not carried by the JSON format). */
  readonly requiresReplace?: boolean;
  /** Computed value that stays as it is across updates (like UseStateForUnknown). */
  readonly stable?: boolean;
}

export interface BlockSchema {
  readonly description: string;
  readonly attributes: Readonly<Record<string, AttributeSchema>>;
}

export interface ResourceSchema extends BlockSchema {
  /** Schema version stored with the state, for UpgradeResourceState. */
  readonly version: number;
}

export interface ProviderSchemaDoc {
  /** Registry address, e.g. registry.terraform.io/networkcalc/networkcalc. */
  readonly address: string;
  readonly provider: BlockSchema;
  readonly resources: Readonly<Record<string, ResourceSchema>>;
  readonly dataSources: Readonly<Record<string, BlockSchema>>;
}
